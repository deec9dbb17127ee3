import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseJson } from '../../../lib/shared/json';

/** parseJson: hostile JSON is refused (too deep) or defused (own toString/valueOf), never changed. */

describe('parseJson', () => {
  it('refuses nesting deeper than the cap with a message, where JSON.stringify would overflow later', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const r = parseJson(deep);
    expect(r).toEqual({ ok: false, message: 'JSON nested deeper than 512 levels' });
    expect(parseJson(`${'{"a":'.repeat(511)}1${'}'.repeat(511)}`).ok).toBe(true);
  });

  it('measures the nesting it walked: containers inside containers, brackets in strings not counted', () => {
    const depth = (text: string) => {
      const r = parseJson(text);
      return r.ok ? r.depth : undefined;
    };
    expect([depth('"[[["'), depth('1'), depth('{}'), depth('[[1]]'), depth('{"a":[{"b":"]]]"}],"c":{}}')]).toEqual([0, 0, 1, 2, 3]);
    expect(depth(`${'{"a":'.repeat(511)}1${'}'.repeat(511)}`)).toBe(511);
  });

  it('reports a syntax error as not JSON', () => {
    const r = parseJson('{"a":');
    expect(r.ok).toBe(false);
  });

  it('lets an object with its own toString be turned into a string and compared, as sent', () => {
    const r = parseJson('{"method":{"length":{"toString":{}}},"x":[{"toString":1,"valueOf":2}]}');
    if (!r.ok) throw new Error(r.message);
    const v = r.value as { method: { length: object }; x: object[] };
    expect(`${v.method.length}`).toBe('[object Object]');
    expect(String(v.x)).toBe('[object Object]');
    // zod's min-length check compares the `length` of whatever it is given; unguarded, this throws.
    expect(() => z.string().min(1).safeParse(JSON.parse('{"length":{"toString":{}}}'))).toThrow(TypeError);
    expect(z.string().min(1).safeParse(v.method).success).toBe(false);
    // The data is unchanged: same keys, same JSON.
    expect(JSON.stringify(v)).toBe('{"method":{"length":{"toString":{}}},"x":[{"toString":1,"valueOf":2}]}');
    expect(Object.keys(v.x[0] as object)).toEqual(['toString', 'valueOf']);
  });

  it('keeps an own __proto__ key as data, never as the prototype', () => {
    const r = parseJson('{"__proto__":{"polluted":true}}');
    if (!r.ok) throw new Error(r.message);
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.hasOwn(r.value as object, '__proto__')).toBe(true);
  });
});
