import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { ScenarioSchema } from '../../../lib/scenario/schema';
import { buildRequest } from '../../helpers/rpc';

/**
 * A tool whose result has no placeholder answers from a result made once and its JSON text made
 * once: what the client reads must be exactly what serializing the whole answer would give, for
 * any id, call after call, and the scenario's result must stay as it was.
 */

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

describe('constant tool results', () => {
  it('answer byte for byte as a serialized message, whatever the id, and stay unchanged', async () => {
    const scenario = getBuiltinScenario('conformance')!;
    const engine = createMockEngine({ scenario });
    engines.push(engine);
    const before = JSON.stringify(scenario.tools.find((t) => t.name === 'test_simple_text')?.result);
    const texts: string[] = [];
    for (const id of ['a"b\\c\u2028\u{1F600}', 0, 12345678901, -1, 'plain', 'a"b\\c\u2028\u{1F600}']) {
      const response = await engine.fetch(buildRequest('tools/call', { name: 'test_simple_text', arguments: {} }, { id }).request);
      expect(response.status).toBe(200);
      const text = await response.text();
      const message = {
        jsonrpc: '2.0',
        id,
        result: { resultType: 'complete', content: [{ type: 'text', text: 'This is a simple text response for testing.' }] },
      };
      expect(text).toBe(JSON.stringify(message));
      texts.push(text);
    }
    expect(texts[5]).toBe(texts[0]);
    expect(JSON.stringify(scenario.tools.find((t) => t.name === 'test_simple_text')?.result)).toBe(before);
    // The journal still keeps the answer.
    expect(engine.journal.entries().at(-1)?.responseBody).toEqual(JSON.parse(texts[5] ?? ''));
  });

  it('are journaled whole up to the nesting limit and marked truncated past it', async () => {
    // The journal keeps 24 levels; the answer wraps the result's own nesting in two (message, result).
    const nest = (n: number): Record<string, unknown> => (n === 0 ? { leaf: true } : { d: nest(n - 1) });
    const scenario = ScenarioSchema.parse({
      id: 'deep',
      server: { name: 'deep', version: '1.0.0' },
      tools: [
        { name: 'fits', inputSchema: { type: 'object' }, result: { content: [], structuredContent: nest(21) } },
        { name: 'over', inputSchema: { type: 'object' }, result: { content: [], structuredContent: nest(22) } },
      ],
    });
    const engine = createMockEngine({ scenario });
    engines.push(engine);
    for (const name of ['fits', 'over', 'fits', 'over']) {
      const response = await engine.fetch(buildRequest('tools/call', { name, arguments: {} }).request);
      expect(response.status).toBe(200);
      await response.text();
      const entry = engine.journal.entries().at(-1);
      expect(entry?.truncated ?? false).toBe(name === 'over');
      expect(JSON.stringify(entry?.responseBody).includes('too deep')).toBe(name === 'over');
    }
  });
});
