import type { TrackedTransport } from './tracking';
import { asRecord } from '../shared/records';

/** What `TrackedTransport.record()` takes: a frame without seq, connection and time. */
export type BridgeFrame = Parameters<TrackedTransport['record']>[0];

/** Who says what: `out` is host → view, `in` is view → host. */
export type BridgeDirection = 'in' | 'out';

/**
 * Makes the `bridge` frame of each message the bridge transport passes (the timeline's app lane
 * and the bridge log): a response is named by the method of the request it answers, which this
 * remembers per direction and id.
 */
export function createBridgeRecorder(exchangeId: string, sink: ((frame: BridgeFrame) => void) | undefined) {
  const methods = new Map<string, string>();
  return (message: unknown, direction: BridgeDirection, errorText?: string, text?: string) => {
    if (!sink) return;
    const m = asRecord(message);
    const id = m && (typeof m.id === 'string' || typeof m.id === 'number') ? m.id : undefined;
    let method = typeof m?.method === 'string' ? m.method : undefined;
    if (method && id !== undefined) methods.set(`${direction}:${id}`, method);
    if (!method && id !== undefined) method = methods.get(`${direction === 'in' ? 'out' : 'in'}:${id}`);
    const error = asRecord(m?.error);
    const detail = errorText ?? (error ? `${String(error.code)} ${String(error.message)}` : undefined);
    let raw = text;
    try {
      raw ??= JSON.stringify(message);
    } catch {
      raw = undefined;
    }
    try {
      sink({
        kind: 'bridge',
        direction,
        exchangeId,
        conversationId: exchangeId,
        body: message,
        ...(raw !== undefined ? { raw } : {}),
        ...(id !== undefined ? { rpcId: id } : {}),
        ...(method ? { method } : {}),
        ...(detail ? { errorText: detail } : {}),
      });
    } catch {
      /* a broken sink must not break the bridge */
    }
  };
}
