import { describe, expect, it } from 'vitest';
import { toolArguments } from '../../../lib/cli/client-args';

/** `call NAME key=value … --args JSON`: the arguments sent are exactly the ones written. */
describe('toolArguments', () => {
  it('sends a "__proto__" argument as written, from --args and from key=value alike', () => {
    const fromJson = toolArguments([], '{"__proto__":{"x":1},"constructor":"c"}', undefined);
    expect(JSON.parse(JSON.stringify(fromJson))).toEqual(JSON.parse('{"__proto__":{"x":1},"constructor":"c"}'));
    const fromWords = toolArguments(['__proto__={"y":2}', 'toString=t'], undefined, undefined);
    expect(JSON.stringify(fromWords)).toBe('{"__proto__":{"y":2},"toString":"t"}');
    // Nothing leaked onto Object.prototype.
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).y).toBeUndefined();
  });

  it('coerces key=value by the tool schema and lets --args win', () => {
    const tool = { name: 't', inputSchema: { type: 'object' as const, properties: { n: { type: 'integer' }, s: { type: 'string' } } } };
    expect({ ...toolArguments(['n=3', 's=4'], '{"s":"five"}', tool) }).toEqual({ n: 3, s: 'five' });
  });
});
