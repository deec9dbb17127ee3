import type { Scenario } from '../scenario/schema';
import type { Grade, GradeContext } from './report-card';
import { faultLabel } from './faults';
import { noting, plural, seqs, ungraded, type Exchange } from './report-view';

/** The Retry-After grade: a client answered 429 or 503 with Retry-After waits that long before it asks again. */

const SPEC =
  'MCP 2026-07-28 Streamable HTTP runs on HTTP semantics: RFC 9110 §10.2.3 Retry-After (with 429, RFC 6585 §4, or 503) is how long to wait before the follow-up request';

/** A retry this much earlier than Retry-After asked is still forgiven (the two ends' clocks and timers). */
const RETRY_AFTER_SLACK_MS = 50;

/** The Retry-After (ms) the mock sent with this answer: an http-status fault that fired on it. */
function retryAfterOf(x: Exchange, scenario: Scenario): number | undefined {
  for (const [i, f] of scenario.faults.entries()) {
    const a = f.action;
    if (a.kind === 'http-status' && a.retryAfter !== undefined && a.status === x.status && x.faults.includes(faultLabel(f, i))) return a.retryAfter * 1000;
  }
  return undefined;
}

/** The same request again: same client, method and target (tool, task or resource). */
const sameRequest = (a: Exchange, b: Exchange) =>
  a.method === b.method &&
  a.principal === b.principal &&
  (a.params.name ?? a.params.taskId ?? a.params.uri) === (b.params.name ?? b.params.taskId ?? b.params.uri);

/**
 * After an HTTP status with Retry-After (a 429 or 503 fault), the client sent that request again
 * no sooner than asked. HTTP only, either era: stdio has no status or headers to carry it.
 */
export function gradeRetryAfter({ xs, scenario }: GradeContext): Grade {
  const base = { id: 'honours-retry-after', title: 'Waits as Retry-After asks before retrying', specRef: SPEC };
  const left = ungraded(xs, 'request', { stdio: 'which has no HTTP status or Retry-After header' });
  const bad: { busy: Exchange; retry: Exchange; waited: number; asked: number }[] = [];
  const good: number[] = [];
  let answered = 0;
  for (const busy of xs) {
    const asked = retryAfterOf(busy, scenario);
    if (asked === undefined) continue;
    answered++;
    const retry = xs.find((y) => y.order > busy.order && sameRequest(busy, y));
    if (!retry) continue;
    const waited = retry.at - (busy.endedAt ?? busy.at);
    if (waited + RETRY_AFTER_SLACK_MS < asked) bad.push({ busy, retry, waited, asked });
    else good.push(busy.seq, retry.seq);
  }
  const [w] = bad;
  if (w)
    return {
      ...base,
      status: 'fail',
      detail: `${plural(bad.length, 'retry', 'retries')} came before Retry-After; e.g. ${w.retry.method} #${w.retry.seq} came ${w.waited} ms after the ${w.busy.status} in #${w.busy.seq}, which asked for ${w.asked / 1000} s.`,
      evidence: seqs(bad.flatMap((b) => [b.busy.seq, b.retry.seq])),
    };
  if (!good.length)
    return {
      ...base,
      status: 'not-observed',
      detail: answered
        ? 'The client was answered with Retry-After but never sent that request again.'
        : xs.every((x) => x.transport === 'stdio') && left
          ? `${left}.`
          : noting('No answer carried Retry-After (add an http-status fault with retryAfter).', left),
      evidence: [],
    };
  return { ...base, status: 'pass', detail: `${plural(good.length / 2, 'retry', 'retries')} waited as long as Retry-After asked.`, evidence: seqs(good) };
}
