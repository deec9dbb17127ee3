import { Text } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { toDiagnostics } from '../../../components/scenario/use-code-editor';
import { parseScenario } from '../../../lib/scenario/loader';

/** The editor's lint source puts each parser issue on the line and column the parser names. */

const YAML = ['id: lint', 'server:', '  name: lint', '  version: 1', 'tools:', '  - name: echo', '    result: nope', ''].join('\n');

describe('scenario lint diagnostics', () => {
  it('marks each error from its column to the end of its line', () => {
    const parsed = parseScenario(YAML, 'lint.yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const doc = Text.of(YAML.split('\n'));
    const diagnostics = toDiagnostics(doc, parsed.errors, 'error');
    const lines = diagnostics.map((d) => doc.lineAt(d.from).number);
    expect(lines).toEqual(parsed.errors.map((e) => e.line));
    expect(lines).toEqual([4, 7]);
    const [version, result] = diagnostics;
    expect(doc.sliceString(version.from, version.to)).toBe('1');
    expect(doc.sliceString(result.from, result.to)).toBe('nope');
    expect(result).toMatchObject({ severity: 'error', source: 'tools[0].result' });
  });

  it('keeps positions inside the document when an issue points past its end', () => {
    const doc = Text.of(['id: x']);
    const [d] = toDiagnostics(doc, [{ source: 'x.yaml', line: 9, column: 40, path: '', message: 'Unexpected end' }], 'error');
    expect(d.from).toBe(5);
    expect(d.to).toBe(5);
  });
});
