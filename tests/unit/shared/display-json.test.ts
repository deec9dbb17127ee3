import { describe, expect, it } from 'vitest';
import { displayJson, displayJsonText } from '../../../lib/shared/display-json';

/** JSON shown to people: indented while that stays small, compact when indenting would explode. */

const deepText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('displayJson', () => {
  it('indents ordinary values as JSON.stringify does', () => {
    const value = { a: [1, { b: 'x' }], c: null };
    expect(displayJson(value)).toBe(JSON.stringify(value, null, 2));
    expect(displayJsonText(JSON.stringify(value))).toEqual({ ok: true, text: JSON.stringify(value, null, 2) });
  });

  it('keeps deep JSON compact: the same bytes as sent, not the ~100 MB that indenting 10,000 levels makes', () => {
    const text = deepText(10_000);
    expect(displayJsonText(text)).toEqual({ ok: true, text });
    const thousand = deepText(1_000);
    expect(displayJson(JSON.parse(thousand))).toBe(thousand);
  });

  it('says so instead of throwing when the value cannot be written', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(displayJson(cycle)).toMatch(/^\(not shown: .*circular/i);
  });

  it('counts brackets inside strings as text, not nesting', () => {
    const value = { s: '['.repeat(500) };
    expect(displayJson(value)).toBe(JSON.stringify(value, null, 2));
  });

  it('shows text that is not JSON as it is', () => {
    expect(displayJsonText('{not json')).toEqual({ ok: false, text: '{not json' });
  });
});
