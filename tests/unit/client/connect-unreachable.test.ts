import { describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../../lib/client/http-transport';
import { createClientSession } from '../../../lib/client/session';

/**
 * A server that cannot be reached is said so at the first attempt of the connect: no silent
 * re-sends with backoff before the user hears anything. Once connected, a safe request that
 * meets a dropped connection is still re-sent.
 */

describe('connecting to a server that cannot be reached', () => {
  it('fails after one attempt, for each era choice', async () => {
    for (const era of ['auto', 'modern', 'legacy'] as const) {
      let attempts = 0;
      const transport = createHttpTransport({
        url: 'http://127.0.0.1:9/mcp',
        fetch: async () => {
          attempts++;
          throw new TypeError('Failed to fetch');
        },
      });
      const session = createClientSession({ transport, era });
      const out = await session.request('server/discover');
      expect(out).toMatchObject({ type: 'failure', reason: 'network' });
      expect(attempts).toBe(1);
      await session.close();
    }
  });

  it('still re-sends a safe request once connected', async () => {
    let fail = 0;
    const transport = createHttpTransport({
      url: 'http://127.0.0.1:9/mcp',
      fetch: async (_url, init) => {
        const body = JSON.parse(String(init.body)) as { id: number; method: string };
        if (body.method === 'tools/list' && fail++ === 0) throw new TypeError('Failed to fetch');
        const result =
          body.method === 'server/discover' ? { supportedVersions: ['2026-07-28'], capabilities: {}, serverInfo: { name: 's', version: '1' } } : { tools: [] };
        return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', ...result } }), {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const session = createClientSession({ transport, era: 'auto' });
    expect((await session.connect()).type).toBe('complete');
    expect((await session.request('tools/list')).type).toBe('complete');
    expect(fail).toBe(2);
    await session.close();
  });
});
