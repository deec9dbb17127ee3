import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../../lib/scenario/files';
import { formatIssues, parseScenario, type ScenarioIssue } from '../../../lib/scenario/loader';

/**
 * The mistakes authors make most: a misspelled key, which used to pass silently, and one bad
 * value that used to bury itself under dozens of follow-on errors. Each is one error, at its
 * line, naming the mistake.
 */

function errorsOf(text: string, source = 'test.yaml'): ScenarioIssue[] {
  const result = parseScenario(text, source);
  if (result.ok) throw new Error('expected the scenario to be invalid');
  return result.errors;
}

const BROKEN_APPS = new URL('../../fixtures/scenarios/readme-apps-broken.yaml', import.meta.url);

describe('misspelled keys', () => {
  it('reports tools[].reslt and faults[].mach at their line, with the key meant, and nothing else', () => {
    const text = [
      'id: typos', // 1
      'server: { name: typos, version: "1" }', // 2
      'tools:', // 3
      '  - name: echo', // 4
      '    reslt: { content: [] }', // 5
      'faults:', // 6
      '  - mach: { tool: echo }', // 7
      '    action: { kind: latency, ms: 5 }', // 8
    ].join('\n');
    expect(errorsOf(text)).toEqual([
      { source: 'test.yaml', line: 5, column: 5, path: 'tools[0].reslt', message: 'Unknown key "reslt" (did you mean "result"?)' },
      { source: 'test.yaml', line: 7, column: 5, path: 'faults[0].mach', message: 'Unknown key "mach" (did you mean "match"?)' },
    ]);
  });

  it('reports a misspelled required key once, not also as missing', () => {
    const errors = errorsOf('id: x\nserver: { name: s, version: "1" }\nfaults:\n  - action: { kind: drop, afterEvnts: 2 }\n');
    expect(formatIssues(errors)).toBe('test.yaml:4:27 faults[0].action.afterEvnts: Unknown key "afterEvnts" (did you mean "afterEvents"?)');
  });

  it('lists the allowed keys when nothing is close, at every depth', () => {
    const text = [
      'id: x', // 1
      'server: { name: s, version: "1", colour: blue }', // 2
      'settings: { pollIntervalMS: 10 }', // 3
      'tools:', // 4
      '  - name: slow', // 5
      '    task:', // 6
      '      steps:', // 7
      '        - { delayMs: 5, statusMesage: hi }', // 8
      '        - result: { content: [] }', // 9
      '      cancel: { policy: ignore, ignorePoll: 2 }', // 10
    ].join('\n');
    expect(errorsOf(text).map((e) => [e.line, e.path, e.message])).toEqual([
      [2, 'server.colour', 'Unknown key "colour"; allowed here: name, version, title, instructions'],
      [3, 'settings.pollIntervalMS', 'Unknown key "pollIntervalMS" (did you mean "pollIntervalMs"?)'],
      [8, 'tools[0].task.steps[0].statusMesage', 'Unknown key "statusMesage" (did you mean "statusMessage"?)'],
      [10, 'tools[0].task.cancel.ignorePoll', 'Unknown key "ignorePoll" (did you mean "ignorePolls"?)'],
    ]);
  });

  it('still accepts open objects: JSON Schema bodies, _meta, result payloads and request params', () => {
    const text = `id: open
server: { name: s, version: "1" }
tools:
  - name: t
    inputSchema: { type: object, properties: { q: { type: string, x-mcp-header: Query } }, additionalProperties: false }
    _meta: { com.example/anything: { deep: [1, 2] } }
    mrtr:
      rounds:
        - inputRequests:
            ask: { method: elicitation/create, params: { mode: form, message: Hi, requestedSchema: { type: object }, vendorField: 1 } }
    result: { content: [{ type: text, text: ok, annotations: { audience: [user] } }], _meta: { trace: 1 } }
`;
    const result = parseScenario(text, 'open.yaml');
    expect(result.ok ? '' : formatIssues(result.errors)).toBe('');
  });
});

describe('one mistake, one error', () => {
  it('reports the old README MCP Apps example as its real mistake, an unquoted {{...}} (it used to give dozens of errors)', () => {
    const result = loadScenarioFile(BROKEN_APPS.pathname);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.length).toBeLessThan(5);
    for (const error of result.errors) {
      expect(error.line).toBe(4); // result: { content: [{ type: text, text: Chart of {{args.series}} }], ... }
      expect(error.message).toMatch(/unquoted \{\{\.\.\.\}\} placeholder/);
      expect(error.message).toContain('quote the value, e.g. text: "Chart of {{args.series}}"');
    }
  });

  it('gives the same single error when the broken block sits in a whole scenario', () => {
    const block = readFileSync(BROKEN_APPS, 'utf8');
    const errors = errorsOf(`id: charts\nserver: { name: charts, version: "1" }\n${block}`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 6, path: '' });
    expect(errors[0]?.message).toMatch(/follow from it: fix it and validate again/);
  });

  it('names an unquoted placeholder that YAML silently reads as a mapping', () => {
    const text =
      'id: x\nserver: { name: s, version: "1" }\ntools:\n  - name: echo\n    result:\n      content:\n        - { type: text, text: {{args.text}} }\n';
    const errors = errorsOf(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 7, path: '' });
    expect(errors[0]?.message).toMatch(/^A mapping is used as a key: an unquoted \{\{\.\.\.\}\} placeholder/);
  });

  it('keeps independent YAML errors that come before the first syntax error', () => {
    const errors = errorsOf('id: a\nid: b\nserver: { name: [unclosed\n');
    expect(errors.map((e) => e.line)).toEqual([2, 4]); // the unclosed flow mapping is noticed at the end of the file
    expect(errors[0]?.message).toMatch(/unique/i);
  });
});
