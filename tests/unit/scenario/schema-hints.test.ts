import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema } from '../../../lib/scenario/json-schema';
import { describeKeyAt, hintsAt } from '../../../lib/scenario/schema-hints';

const schema = scenarioJsonSchema();

/** Hints at the `|` in `doc`. */
function at(doc: string) {
  const lines = doc.split('\n');
  const line = lines.findIndex((l) => l.includes('|'));
  const text = lines[line] ?? '';
  const col = text.indexOf('|');
  const clean = lines.map((l) => l.replace('|', ''));
  return hintsAt(schema, clean, line, text.slice(0, col));
}

describe('scenario schema hints in the editor', () => {
  it('offers the top-level keys with their descriptions', () => {
    const h = at('id: x\nser|');
    expect(h?.kind).toBe('key');
    expect(h?.from).toBe(0);
    const server = h?.hints.find((x) => x.label === 'server');
    expect(server?.detail).toMatch(/Who the mock server says it is/);
  });

  it('offers the keys of a list item, on its dash line and on the lines under it', () => {
    const first = at('tools:\n  - |');
    expect(first?.hints.map((x) => x.label)).toEqual(expect.arrayContaining(['name', 'inputSchema', 'task']));
    const next = at('tools:\n  - name: a\n    desc|');
    expect(next?.hints.map((x) => x.label)).toContain('description');
    expect(next?.from).toBe(4);
    const second = at('tools:\n  - name: a\n    title: A\n  - name: b\n    |');
    expect(second?.hints.map((x) => x.label)).toContain('outputSchema');
  });

  it('offers the values of an enum field and of a boolean', () => {
    expect(
      at('settings:\n  discoverCacheScope: |')
        ?.hints.map((x) => x.label)
        .sort(),
    ).toEqual(['private', 'public']);
    expect(at('settings:\n  legacy: t|')?.hints.map((x) => x.label)).toEqual(['true', 'false']);
  });

  it('says nothing where the schema has nothing (a free-form object, a value with no choices)', () => {
    expect(at('server:\n  name: |')).toBeUndefined();
    expect(at('nosuchkey:\n  |')).toBeUndefined();
  });

  it('describes the key under the pointer', () => {
    const lines = ['tools:', '  - name: a', '    delayMs: 5'];
    expect(describeKeyAt(schema, lines, 2, 6)?.text).toMatch(/./);
    expect(describeKeyAt(schema, lines, 2, 6)?.key).toBe('delayMs');
    expect(describeKeyAt(schema, lines, 1, 5)?.text).toMatch(/Tool name/);
    expect(describeKeyAt(schema, lines, 1, 12)).toBeUndefined();
  });
});
