import { randomToken } from '../engine/runtime';
import type { Recording } from '../recording/schema';
import type { ReplayStarted } from '../protocol/loupe-api';
import type { MockHost } from './mock-host';
import { createReplayServerHandler } from './replay-server';

/**
 * Recordings served as mocks by a running Loupe (the viewer's replay button): each one gets an
 * endpoint `/mcp/replay/<id>` next to the scenarios' `/mcp/<id>`, with the same transport
 * guards. They live in memory, a few at a time (the oldest is dropped), per mock host.
 */

/** Replays kept at once; each holds a whole recording in memory. */
const MAX_REPLAYS = 5;

/** The replays of one mock host. */
interface ReplayRegistry {
  /** `loose`: a request the recording does not hold takes the next answer of its method instead of an error. */
  register(recording: Recording, options?: { loose?: boolean }): ReplayStarted;
  fetch(id: string, request: Request): Promise<Response> | undefined;
  ids(): string[];
}

const registries = new WeakMap<MockHost, ReplayRegistry>();

function createReplayRegistry(allowedHosts?: string[]): ReplayRegistry {
  const replays = new Map<string, ReturnType<typeof createReplayServerHandler>>();
  return {
    register(recording, options = {}) {
      const id = randomToken(9)
        .toLowerCase()
        .replace(/[^a-z0-9]/g, 'x');
      const handler = createReplayServerHandler(recording, { allowedHosts, loose: !!options.loose });
      replays.set(id, handler);
      while (replays.size > MAX_REPLAYS) replays.delete(replays.keys().next().value as string);
      return { id, path: `/mcp/replay/${id}`, exchanges: handler.exchanges };
    },
    fetch: (id, request) => replays.get(id)?.fetch(request),
    ids: () => [...replays.keys()],
  };
}

/** The replay registry of a mock host (created on first use). */
export function replaysOf(host: MockHost, allowedHosts?: string[]): ReplayRegistry {
  let r = registries.get(host);
  if (!r) {
    r = createReplayRegistry(allowedHosts);
    registries.set(host, r);
  }
  return r;
}
