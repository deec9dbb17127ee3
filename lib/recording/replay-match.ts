import { ERROR } from '../protocol';

/**
 * Which recorded request answers an incoming one, and what to say when none does. Requests match
 * on method and canonical params (replay.ts). Without `loose`, a request the recording does not
 * hold gets a JSON-RPC error that names it, with the closest recorded request in `data` (an
 * unrelated recorded answer would look like the server's answer and mislead). With `loose`, it
 * takes the next unused answer of its method, as the replay did before (method order).
 */

/** One recorded request as the matcher sees it. */
export interface Candidate {
  method: string;
  /** Canonical params (sorted keys, no `_meta`). */
  key: string;
  exchangeId: string;
  used: boolean;
}

/** How a request is answered: `exact`, `repeat` (same request again, the last answer repeats), `sequential` (loose), or not at all. */
export type MatchKind = 'exact' | 'repeat' | 'sequential' | 'unmatched';

/** Pick the recorded request that answers `method`/`key`. */
export function pickRecorded<T extends Candidate>(list: readonly T[], key: string, loose: boolean): { r?: T; match: MatchKind } {
  const same = list.filter((r) => r.key === key);
  if (same.length) {
    const next = same.find((r) => !r.used);
    return next ? { r: next, match: 'exact' } : { r: same[same.length - 1], match: 'repeat' };
  }
  const next = loose ? list.find((r) => !r.used) : undefined;
  return next ? { r: next, match: 'sequential' } : { match: 'unmatched' };
}

/** Every `path=value` leaf of a JSON value, to compare params by what they share. */
function leaves(value: unknown, path = '', out = new Set<string>()): Set<string> {
  if (value && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    if (!entries.length) out.add(`${path}=${Array.isArray(value) ? '[]' : '{}'}`);
    for (const [k, v] of entries) leaves(v, `${path}/${k}`, out);
  } else out.add(`${path}=${JSON.stringify(value)}`);
  return out;
}

/** The recorded request most like the incoming one: same method first, then the most shared params. */
function closestRecorded<T extends Candidate>(all: readonly T[], method: string, params: unknown): T | undefined {
  const mine = leaves(params);
  let best: { r: T; score: number } | undefined;
  for (const r of all) {
    const theirs = leaves(JSON.parse(r.key) as unknown);
    const shared = [...mine].filter((l) => theirs.has(l)).length;
    const union = new Set([...mine, ...theirs]).size || 1;
    const score = (r.method === method ? 1 : 0) + shared / union;
    if (!best || score > best.score) best = { r, score };
  }
  return best?.r;
}

/** The JSON-RPC error for a request the recording does not hold (`key`: its canonical params, no `_meta`). */
export function unmatchedError(
  all: readonly Candidate[],
  method: string,
  key: string,
  exhausted: boolean,
): { code: number; message: string; data: Record<string, unknown> } {
  const params = JSON.parse(key) as unknown;
  const closest = closestRecorded(all, method, params);
  const recordedMethod = all.some((r) => r.method === method);
  const what = `${method} ${key}`;
  const methods = [...new Set(all.map((r) => r.method))];
  const message = !recordedMethod
    ? `Not in the recording: no ${method} request was recorded (recorded: ${methods.join(', ') || 'nothing'})`
    : exhausted
      ? `No recorded ${method} answer is left for these params: every recorded one was replayed`
      : `Not in the recording: ${what} was never recorded (replay with --loose to answer by method order)`;
  return {
    code: recordedMethod ? ERROR.invalidParams : ERROR.methodNotFound,
    message,
    data: {
      notRecorded: { method, params },
      ...(closest ? { closest: { method: closest.method, params: JSON.parse(closest.key) as unknown, exchangeId: closest.exchangeId } } : {}),
      recordedMethods: methods,
    },
  };
}
