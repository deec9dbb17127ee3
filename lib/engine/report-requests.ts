import { HEADER } from '../protocol';
import { asRecord } from '../shared/records';
import { isTerminalStatus } from '../shared/task-status';
import type { ToolSpec } from '../scenario/schema';
import type { Grade, GradeContext } from './report-card';
import { ABOUT_MODERN, canonical, noting, plural, seqs, ungraded, type Exchange } from './report-view';

/** Grades about requests in general: re-listen after a drop, idempotency keys, requestState echo (Retry-After: report-retry-after.ts). */

/** How long after a dropped listen stream a missing re-listen is still "not yet" rather than a fail. */
const RELISTEN_GRACE_MS = 10_000;

const SPEC = {
  relisten: 'MCP 2026-07-28 subscriptions/listen (an abrupt close is a disconnect; re-send listen) and Streamable HTTP (no Last-Event-ID resumability)',
  idempotency: "MCP 2026-07-28 tool annotations (destructiveHint, readOnlyHint) and the tool's idempotencyKey argument: retries of side effects must be safe",
  state: 'MCP 2026-07-28 MRTR client rules: echo requestState byte-exact; never send one that was not issued',
};

/** The listen filter without task ids the client already saw finish (dropping those is fine). */
function filterKey(x: Exchange, finished: Set<string>): string {
  const n = { ...asRecord(x.params.notifications) };
  if (Array.isArray(n.taskIds)) n.taskIds = [...n.taskIds].filter((t) => !finished.has(String(t))).sort();
  if (Array.isArray(n.resourceSubscriptions)) n.resourceSubscriptions = [...n.resourceSubscriptions].sort();
  for (const [k, v] of Object.entries(n)) if (v === false || (Array.isArray(v) && !v.length)) delete n[k];
  return canonical(n);
}

/**
 * After a listen stream dropped without its final response: a new listen, same filters, no
 * Last-Event-ID. HTTP only: a stdio listen is no stream that drops and has no headers (and a
 * 2025-11-25 client resumes its GET stream with Last-Event-ID by right).
 */
export function gradeRelisten({ xs, sightings, now }: GradeContext): Grade {
  const base = { id: 'relisten-without-last-event-id', title: 'Re-listen after a drop, without Last-Event-ID', specRef: SPEC.relisten };
  const stdioListens = xs.filter((x) => x.method === 'subscriptions/listen' && x.transport === 'stdio');
  const left = ungraded(stdioListens, 'listen request', { stdio: 'where no HTTP stream drops and no Last-Event-ID header exists' });
  const listens = xs.filter((x) => x.modern && x.transport === 'http' && x.method === 'subscriptions/listen');
  const withId = listens.filter((x) => x.headers[HEADER.lastEventId.toLowerCase()] !== undefined);
  const drops = listens.filter((x) => x.end === 'dropped');
  const bad: number[] = withId.map((x) => x.seq);
  const good: number[] = [];
  const [firstWithId] = withId;
  let reason = firstWithId
    ? `${plural(withId.length, 'listen request')} sent a Last-Event-ID header (first #${firstWithId.seq}); 2026-07-28 has no stream resumption.`
    : '';
  let waiting = 0;
  for (const drop of drops) {
    const finished = new Set(sightings.filter((s) => isTerminalStatus(s.status) && s.order < drop.doneOrder).map((s) => s.taskId));
    const key = filterKey(drop, finished);
    const again = listens.find((x) => x.order > drop.doneOrder && x.principal === drop.principal && filterKey(x, finished) === key);
    if (again) {
      (withId.includes(again) ? bad : good).push(drop.seq, again.seq);
    } else if (now - (drop.endedAt ?? drop.at) < RELISTEN_GRACE_MS) waiting++;
    else {
      bad.push(drop.seq);
      const other = listens.find((x) => x.order > drop.doneOrder && x.principal === drop.principal);
      reason ||= other
        ? `After listen #${drop.seq} dropped, the next listen #${other.seq} asked for different notifications.`
        : `After listen #${drop.seq} dropped without its final response, the client never listened again.`;
    }
  }
  if (bad.length) return { ...base, status: 'fail', detail: noting(reason, left), evidence: seqs(bad) };
  if (!good.length) {
    const none = listens.length || !left ? 'No listen stream was dropped by the server.' : `${left}.`;
    const detail = waiting ? 'A listen stream dropped; waiting for the client to listen again.' : none;
    return { ...base, status: 'not-observed', detail, evidence: [] };
  }
  return {
    ...base,
    status: 'pass',
    detail: noting(`After ${plural(good.length / 2, 'dropped stream')} the client listened again with the same filters and no Last-Event-ID.`, left),
    evidence: seqs(good),
  };
}

/** A tool with side effects that offers an idempotency key: not read-only (or destructive) with an `idempotencyKey` argument. */
function takesIdempotencyKey(tool: ToolSpec): boolean {
  const a = asRecord(tool.annotations) ?? {};
  const sideEffects = a.destructiveHint === true || a.readOnlyHint !== true;
  return sideEffects && 'idempotencyKey' in (asRecord(asRecord(tool.inputSchema)?.properties) ?? {});
}

const hasKey = (x: Exchange) => {
  const k = asRecord(x.params.arguments)?.idempotencyKey;
  return typeof k === 'string' && k.length > 0;
};

/**
 * Calls of such a tool with the same arguments (the key aside) more than once, one of them
 * without a key, fail: the repeat ran the side effect again. Repeats that each carry a key pass,
 * whether the keys match (a safe retry) or differ (a deliberate second charge).
 */
export function gradeIdempotencyKeys({ xs, scenario }: GradeContext): Grade {
  const base = { id: 'idempotency-keys', title: 'Idempotency keys on retried side effects', specRef: SPEC.idempotency };
  const tools = new Set(scenario.tools.filter(takesIdempotencyKey).map((t) => t.name));
  const calls = xs.filter((x) => x.method === 'tools/call' && tools.has(String(x.params.name)));
  if (!calls.length)
    return {
      ...base,
      status: 'not-observed',
      detail: `No call of a tool that takes an idempotency key${tools.size ? ` (${[...tools].join(', ')})` : ''} was seen.`,
      evidence: [],
    };
  const groups = new Map<string, Exchange[]>();
  for (const x of calls) {
    const { idempotencyKey: _k, ...rest } = asRecord(x.params.arguments) ?? {};
    const key = `${x.principal}\n${String(x.params.name)}\n${canonical(rest)}`;
    groups.set(key, [...(groups.get(key) ?? []), x]);
  }
  const bad = [...groups.values()].filter((g) => g.length > 1 && g.some((x) => !hasKey(x)));
  const [g] = bad;
  const first = g?.[0];
  if (g && first) {
    const detail = `${String(first.params.name)} was sent ${g.length} times with the same arguments, ${plural(g.filter((x) => !hasKey(x)).length, 'time')} without an idempotencyKey (#${g.map((x) => x.seq).join(', #')}).`;
    return { ...base, status: 'fail', detail, evidence: seqs(bad.flat().map((x) => x.seq)) };
  }
  const keyed = calls.filter(hasKey).length;
  return {
    ...base,
    status: 'pass',
    detail: `${plural(calls.length, 'call')} (${keyed} with an idempotencyKey); no side effect was repeated without one.`,
    evidence: seqs(calls.map((x) => x.seq)),
  };
}

const MRTR = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Every MRTR retry echoed the requestState of the last input_required for that request, and none when none was issued. */
export function gradeRequestState({ xs }: GradeContext): Grade {
  const base = { id: 'request-state-echo', title: 'requestState echoed exactly', specRef: SPEC.state };
  // A 2025-11-25 client is asked for input with real elicitation/create requests: it has no requestState.
  const left = ungraded(
    xs.filter((x) => MRTR.has(x.method)),
    'tools/call, prompts/get or resources/read request',
    { legacy: `, which is asked for input with elicitation/create requests, not requestState${ABOUT_MODERN}` },
  );
  const mrtr = xs.filter((x) => x.modern && MRTR.has(x.method));
  const keyOf = (x: Exchange) => `${x.principal}\n${x.method}\n${String(x.params.name ?? x.params.uri)}\n${canonical(x.params.arguments ?? null)}`;
  // Requests and their answers, in the order the server saw and sent them.
  const events = [
    ...mrtr.map((x) => ({ order: x.order, x, answer: false })),
    ...mrtr.filter((x) => x.result).map((x) => ({ order: x.doneOrder, x, answer: true })),
  ].sort((a, b) => a.order - b.order);
  const issued = new Map<string, { state?: string; seq: number }>();
  const good: number[] = [];
  const bad: { x: Exchange; why: string }[] = [];
  let asked = 0;
  for (const { x, answer } of events) {
    if (answer) {
      if (x.result?.resultType !== 'input_required') continue;
      asked++;
      issued.set(keyOf(x), { state: typeof x.result.requestState === 'string' ? x.result.requestState : undefined, seq: x.seq });
      continue;
    }
    const sent = x.params.requestState;
    if (sent === undefined && x.params.inputResponses === undefined) continue;
    const last = issued.get(keyOf(x));
    if (!last) {
      if (sent !== undefined) bad.push({ x, why: `#${x.seq} sent a requestState the server never issued for that request` });
    } else if (last.state === undefined) {
      if (sent !== undefined) bad.push({ x, why: `#${x.seq} sent a requestState although #${last.seq} issued none` });
      else good.push(last.seq, x.seq);
    } else if (sent === last.state) good.push(last.seq, x.seq);
    else bad.push({ x, why: `#${x.seq} ${sent === undefined ? 'dropped' : 'altered'} the requestState issued in #${last.seq}` });
  }
  const [firstBad] = bad;
  if (firstBad)
    return {
      ...base,
      status: 'fail',
      detail: noting(`${plural(bad.length, 'retry', 'retries')} did not echo requestState exactly: ${firstBad.why}.`, left),
      evidence: seqs(bad.map((b) => b.x.seq)),
    };
  if (!good.length)
    return {
      ...base,
      status: 'not-observed',
      detail: asked ? noting('The server asked for input but the client never retried.', left) : left ? `${left}.` : 'No input_required result was issued.',
      evidence: [],
    };
  return {
    ...base,
    status: 'pass',
    detail: noting(`${plural(good.length / 2, 'retry', 'retries')} echoed the issued requestState exactly.`, left),
    evidence: seqs(good),
  };
}
