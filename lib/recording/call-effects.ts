import type { Frame } from '../client/frames';
import type { RecordedExchange } from './exchanges';
import { asRecord } from '../shared/records';

/**
 * What a recorded tool call did besides its answer, read from the messages on its stream:
 * server requests (2025-11-25 asks the user by sending elicitation/create, sampling or roots/list
 * mid-call), progress notifications and log messages. A scenario expresses them as MRTR rounds,
 * `progress` steps and `log` entries, so a mock made from the recording asks, reports and logs
 * as the server did.
 */

const INPUT_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'];
const KEY_OF: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

/** The incoming frames of the call that carry a message with `method`. */
function framesOf(x: RecordedExchange, method: string): { frame: Frame; message: Record<string, unknown> }[] {
  return x.incoming.flatMap((f) => {
    const m = asRecord(f.body);
    return (f.kind === 'message' || f.kind === 'sse-frame') && m?.method === method ? [{ frame: f, message: m }] : [];
  });
}

/**
 * The server requests sent during a 2025-11-25 call, one MRTR round each in the order asked
 * (each waited for its answer before the next), keyed by kind: `elicitation`, `elicitation-2`...
 */
export function streamedRounds(x: RecordedExchange): Record<string, unknown>[] {
  const asked = x.incoming
    .map((f) => asRecord(f.body))
    .filter((m): m is Record<string, unknown> => !!m && m.id !== undefined && typeof m.method === 'string' && INPUT_METHODS.includes(m.method));
  const counts = new Map<string, number>();
  return asked.map((m) => {
    const kind = KEY_OF[m.method as string] ?? 'input';
    const n = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, n);
    const key = n === 1 ? kind : `${kind}-${n}`;
    return { inputRequests: { [key]: { method: m.method, params: asRecord(m.params) ?? {} } } };
  });
}

/** The progress notifications of the call as `progress` steps, paced at their mean recorded spacing. */
export function recordedProgress(x: RecordedExchange): Record<string, unknown> | undefined {
  const token = asRecord(x.params?._meta)?.progressToken;
  const seen = framesOf(x, 'notifications/progress').filter(({ message }) => token === undefined || asRecord(message.params)?.progressToken === token);
  if (!seen.length) return undefined;
  const steps = seen.map(({ message }) => {
    const p = asRecord(message.params) ?? {};
    return {
      progress: typeof p.progress === 'number' ? p.progress : 0,
      ...(typeof p.total === 'number' ? { total: p.total } : {}),
      ...(typeof p.message === 'string' ? { message: p.message } : {}),
    };
  });
  // The mock pauses intervalMs before each step, so the mean gap from the request reproduces the pace.
  const span = (seen.at(-1)?.frame.at ?? x.startAt) - x.startAt;
  return { steps, intervalMs: Math.max(0, Math.round(span / steps.length)) };
}

/** The log messages (notifications/message) sent during the call, as `log` entries. */
export function recordedLog(x: RecordedExchange): Record<string, unknown>[] | undefined {
  const logs = framesOf(x, 'notifications/message').map(({ message }) => {
    const p = asRecord(message.params) ?? {};
    return { level: typeof p.level === 'string' ? p.level : 'info', ...(typeof p.logger === 'string' ? { logger: p.logger } : {}), data: p.data ?? null };
  });
  return logs.length ? logs : undefined;
}
