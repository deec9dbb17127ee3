import { refusal, type AskedServerRequest } from '../client/interactive-answerer';
import type { ServerRequestAnswer } from '../client/server-requests';
import type { SliceGet, SliceSet } from './slice';

/**
 * The server's own requests (2025-11-25 elicitation and sampling) that wait for the person at the
 * inspector, oldest first. The connection's answerer adds one and awaits its answer; the prompt
 * that shows it settles it; Disconnect refuses what is left.
 */

/** One request waiting for the person: `seq` names it in the UI. */
interface PendingServerRequest extends AskedServerRequest {
  seq: number;
}

interface ServerRequestsState {
  pending: PendingServerRequest[];
  /** Show `request` and resolve with the person's answer (or the refusal once `signal` aborts). */
  ask(request: AskedServerRequest, signal: AbortSignal): Promise<ServerRequestAnswer>;
  /** Settle request `seq` with `answer` (a second settle is ignored). */
  settle(seq: number, answer: ServerRequestAnswer): void;
}

/** The server-requests part of the inspector state. */
export interface ServerRequestsSlice {
  serverRequests: ServerRequestsState;
}

/** The slice; the resolvers live beside the state, not in it. */
export function createServerRequestsSlice(set: SliceSet<ServerRequestsSlice>, get: SliceGet<ServerRequestsSlice>): ServerRequestsSlice {
  let next = 0;
  const waiting = new Map<number, (answer: ServerRequestAnswer) => void>();
  const update = (pending: PendingServerRequest[]) => set((s) => ({ serverRequests: { ...s.serverRequests, pending } }));

  function settle(seq: number, answer: ServerRequestAnswer) {
    const resolve = waiting.get(seq);
    if (!resolve) return;
    waiting.delete(seq);
    update(get().serverRequests.pending.filter((r) => r.seq !== seq));
    resolve(answer);
  }

  function ask(request: AskedServerRequest, signal: AbortSignal): Promise<ServerRequestAnswer> {
    const seq = ++next;
    return new Promise((resolve) => {
      waiting.set(seq, resolve);
      update([...get().serverRequests.pending, { ...request, seq }]);
      signal.addEventListener('abort', () => settle(seq, refusal(request.method)), { once: true });
    });
  }

  return { serverRequests: { pending: [], ask, settle } };
}
