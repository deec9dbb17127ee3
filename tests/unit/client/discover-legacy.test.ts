import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { createMemoryTransport } from '../../../lib/client/memory-transport';
import { createClientSession } from '../../../lib/client/session';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';

/**
 * The inspector connects with `session.discover()`. Against a 2025-11-25-only server the
 * server/discover probe falls back to `initialize`, and that handshake is the answer: the
 * probe is not re-sent in the legacy era (where server/discover does not exist).
 */

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

describe('discover on a legacy server', () => {
  it('answers with the initialize handshake, then tools work', async () => {
    const engine = createMockEngine({ scenario: getBuiltinScenario('legacy-server')! });
    engines.push(engine);
    const sent: string[] = [];
    const target = {
      fetch: async (req: Request) => {
        sent.push(((await req.clone().json()) as { method: string }).method);
        return engine.fetch(req);
      },
    };
    const session = createClientSession({ transport: createMemoryTransport(target), era: 'auto' });
    const out = await session.discover();
    expect(out.type).toBe('complete');
    expect(session.era).toBe('legacy');
    expect(session.server?.info?.name).toBeDefined();
    expect(sent.filter((m) => m === 'server/discover')).toHaveLength(1);
    expect((await session.listTools()).outcome.type).toBe('complete');
  });
});
