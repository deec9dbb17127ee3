import type { Frame } from '../client/frames';

/** The SSE streams of a session, derived from its frames (what the streams panel lists). */

/** A summary row per stream: mirrors `StreamSummarySchema` (kept structural to avoid an import cycle). */
interface DerivedStream {
  streamId: string;
  exchangeId: string;
  connectionId: string;
  method?: string;
  rpcId?: string | number;
  openedAt: number;
  closedAt?: number;
  closeReason?: NonNullable<Frame['closeReason']>;
  frames: number;
}

/** Every stream opened in `frames`, in the order they opened. */
export function deriveStreams(frames: readonly Frame[]): DerivedStream[] {
  const byId = new Map<string, DerivedStream>();
  for (const f of frames) {
    if (!f.streamId) continue;
    const key = `${f.connectionId}\u0000${f.streamId}`;
    let s = byId.get(key);
    if (!s) {
      s = {
        streamId: f.streamId,
        exchangeId: f.exchangeId,
        connectionId: f.connectionId,
        ...(f.method ? { method: f.method } : {}),
        ...(f.rpcId !== undefined ? { rpcId: f.rpcId } : {}),
        openedAt: f.at,
        frames: 0,
      };
      byId.set(key, s);
    }
    if (f.kind === 'sse-frame') s.frames++;
    if (f.kind === 'sse-close') {
      s.closedAt = f.at;
      if (f.closeReason) s.closeReason = f.closeReason;
    }
  }
  return [...byId.values()];
}
