import { describe, expect, it } from 'vitest';
import { createMockEngine } from '../../../lib/engine';
import { createPrincipalResolver } from '../../../lib/engine/principal';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { createFakeClock } from '../../helpers/fake-clock';
import { buildRequest } from '../../helpers/rpc';

/** Who is calling, as the journal and the pipeline each ask it of one request. */

describe('principal resolver', () => {
  it('answers one header with one promise, so the journal (asking first) has its answer before the pipeline goes on', async () => {
    const resolve = createPrincipalResolver('demo');
    const first = resolve('Bearer token-a');
    expect(resolve('Bearer token-a')).toBe(first);
    expect(resolve('Bearer token-b')).not.toBe(first);
    expect(await first).toMatch(/^demo:token:/);
    expect(await resolve('Bearer token-b')).not.toBe(await first);
    expect(await resolve(null)).toBe('demo:anonymous');
  });

  it('still tells 300 tokens apart once it has forgotten the oldest', async () => {
    const resolve = createPrincipalResolver('demo');
    const names = await Promise.all(Array.from({ length: 300 }, (_, i) => resolve(`Bearer t-${i}`)));
    expect(new Set(names).size).toBe(300);
    expect(await resolve('Bearer t-0')).toBe(names[0]);
  });

  it('has the caller named on the journal entry as soon as the answer is out', async () => {
    const engine = createMockEngine({ scenario: getBuiltinScenario('demo')!, clock: createFakeClock() });
    try {
      for (let i = 0; i < 20; i++) {
        const { request } = buildRequest(
          'tools/call',
          { name: 'echo', arguments: { text: 'x' } },
          { id: `p-${i}`, headers: { Authorization: `Bearer tok-${i}` } },
        );
        const res = await engine.fetch(request);
        // Read before the body: nothing else has had a turn yet.
        expect(engine.journal.entries().find((e) => e.id === `p-${i}`)?.principal).toMatch(/^demo:token:/);
        await res.text();
      }
    } finally {
      engine.close();
    }
  });
});
