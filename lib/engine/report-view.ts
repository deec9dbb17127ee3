import { EXT, META, declaresExtension } from '../protocol';
import { asRecord } from '../shared/records';
import { eraOf } from './era';
import type { StreamEnd } from './exchange-tap';
import type { JournalEntry, JournalFrame } from './journal';

/**
 * A grading view of the journal: JSON-RPC requests with their params, headers, declared
 * capabilities, transport and outcome, plus every task snapshot the client was shown (creation
 * results, tasks/get results and task notifications), in the order the client saw them. Both
 * eras: a 2025-11-25 task comes nested (`{task:{…}}`) on creation, names its cadence
 * `pollInterval`, is pushed as notifications/tasks/status and answered by tasks/result.
 */

/** One JSON-RPC request the mock answered (or is still answering). */
export interface Exchange {
  seq: number;
  /** Request arrival (injected clock). */
  at: number;
  order: number;
  /** When the client had the answer: the response, or a stream's end. Infinity while open. */
  doneOrder: number;
  endedAt?: number;
  method: string;
  params: Record<string, unknown>;
  /** Lower-case header names (none over stdio). */
  headers: Record<string, string>;
  /** How the request came: a stdio message carries no HTTP headers or status. */
  transport: 'http' | 'stdio';
  principal: string;
  /** A 2026-07-28 request (else 2025-11-25). */
  modern: boolean;
  caps: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code?: number; message?: string };
  status?: number;
  frames: JournalFrame[];
  end?: StreamEnd;
  /** Labels of the scenario faults that answered or damaged this request. */
  faults: string[];
}

/** A task status the client was shown. */
export interface TaskSighting {
  taskId: string;
  status: string;
  pollIntervalMs?: number;
  at: number;
  order: number;
  /** Journal entry that carried it. */
  seq: number;
  via: 'create' | 'get' | 'notification' | 'cancel' | 'result';
}

/** The tasks/* methods that name an existing task. */
export const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/**
 * Whether a request was served as 2026-07-28: eraOf, the dispatcher's own rule, so the card
 * grades each request in the era it was answered in. The `_meta` protocol version decides (the
 * spec makes it authoritative; a header that disagrees earns -32020, which is the client's
 * 2026-07-28 mistake, not a 2025-11-25 request), then the header, then whether it claims
 * nothing: a request that claims no version came inside a 2025-11-25 session (stdio) or from a
 * 2025-11-25 client without one (HTTP). A stale `params.task` decides nothing.
 */
function isModern(method: string, params: Record<string, unknown>, headers: Record<string, string>, transport: 'http' | 'stdio'): boolean {
  const bag = { get: (name: string) => headers[name.toLowerCase()] ?? null, forEach: () => {} };
  const era = eraOf({ jsonrpc: '2.0', id: 0, method, params }, { headers: transport === 'http' ? bag : undefined, inSession: true, servesLegacy: true });
  // An initialize sent with a 2026-07-28 header was refused as a 2026-07-28 mistake.
  return typeof era !== 'string' || era === 'modern';
}

/** Requests of the journal, oldest first. Notifications, POSTed responses and unparsable bodies are skipped. */
export function toExchanges(entries: readonly JournalEntry[]): Exchange[] {
  const out: Exchange[] = [];
  for (const e of entries) {
    const body = asRecord(e.requestBody);
    if (!body || typeof body.method !== 'string' || body.id === undefined) continue;
    const params = asRecord(body.params) ?? {};
    const response = asRecord(e.responseBody);
    const caps = asRecord(asRecord(params._meta)?.[META.clientCapabilities]) ?? {};
    out.push({
      seq: e.seq,
      at: e.at,
      order: e.order,
      doneOrder: e.endOrder ?? Infinity,
      endedAt: e.endedAt,
      method: body.method,
      params,
      headers: e.requestHeaders,
      transport: e.transport ?? 'http',
      principal: e.principal ?? 'unknown',
      modern: isModern(body.method, params, e.requestHeaders, e.transport ?? 'http'),
      caps,
      result: asRecord(response?.result),
      error: asRecord(response?.error) as Exchange['error'],
      status: e.status,
      frames: e.frames,
      end: e.end,
      faults: e.fault ? e.fault.split(', ') : [],
    });
  }
  return out.sort((a, b) => a.order - b.order);
}

/** Whether the request declared the tasks extension in its `_meta` capabilities. */
export function declaresTasks(x: Exchange): boolean {
  return declaresExtension(x.caps as never, EXT.tasks);
}

/** Every task status the client was shown, in the order it was shown. */
export function taskSightings(xs: readonly Exchange[]): TaskSighting[] {
  const out: TaskSighting[] = [];
  const add = (snap: Record<string, unknown> | undefined, at: number, order: number, seq: number, via: TaskSighting['via']) => {
    if (!snap || typeof snap.taskId !== 'string' || typeof snap.status !== 'string') return;
    // 2025-11-25 calls it pollInterval; both are milliseconds.
    const interval = snap.pollIntervalMs ?? snap.pollInterval;
    const poll = typeof interval === 'number' ? interval : undefined;
    out.push({ taskId: snap.taskId, status: snap.status, pollIntervalMs: poll, at, order, seq, via });
  };
  for (const x of xs) {
    const done = [x.endedAt ?? x.at, x.doneOrder, x.seq] as const;
    if (x.method === 'tools/call' && x.result?.resultType === 'task') add(x.result, ...done, 'create');
    // A 2025-11-25 task-augmented call answers a CreateTaskResult: the task nested under `task`.
    if (x.method === 'tools/call' && !x.modern && x.params.task !== undefined) add(asRecord(x.result?.task), ...done, 'create');
    if (x.method === 'tasks/get' && x.result) add(x.result, ...done, 'get');
    // 2025-11-25 answers tasks/cancel with the task (cancelled); tasks/result answers only once the task is over.
    if (x.method === 'tasks/cancel' && !x.modern) add(x.result, ...done, 'cancel');
    if (x.method === 'tasks/result' && x.result)
      add({ taskId: x.params.taskId, status: x.result.isError === true ? 'failed' : 'completed' }, ...done, 'result');
    for (const f of x.frames) {
      const m = asRecord(f.message);
      if (m?.method === 'notifications/tasks' || m?.method === 'notifications/tasks/status') add(asRecord(m.params), f.at, f.order, x.seq, 'notification');
    }
  }
  return out.sort((a, b) => a.order - b.order);
}

/** The task a tasks/* request names. */
export function taskIdOf(x: Exchange): string | undefined {
  return typeof x.params.taskId === 'string' ? x.params.taskId : undefined;
}

/** The tasks/get polls of one task, oldest first. */
export const pollsOf = (xs: readonly Exchange[], taskId: string) => xs.filter((x) => x.method === 'tasks/get' && taskIdOf(x) === taskId);

/** The last status of a task the client was shown before `order`. */
export function lastSighting(sightings: readonly TaskSighting[], taskId: string, order: number): TaskSighting | undefined {
  let last: TaskSighting | undefined;
  for (const s of sightings) if (s.taskId === taskId && s.order < order) last = s;
  return last;
}

/** JSON with sorted keys, so equal values compare equal whatever their key order. */
export function canonical(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    const o = asRecord(v);
    if (!o) return v;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sort(o[k])]),
    );
  };
  return JSON.stringify(sort(value)) ?? 'undefined';
}

/** Sorted unique sequence numbers, capped so a long session does not produce a huge card. */
export function seqs(values: Iterable<number>, max = 200): number[] {
  return [...new Set(values)].sort((a, b) => a - b).slice(0, max);
}

/** "1 poll" / "3 polls" ("1 retry" / "2 retries" with `many`). */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** The end of a reason for leaving 2025-11-25 requests out of a rule. */
export const ABOUT_MODERN = '; this rule is about 2026-07-28 clients';

/**
 * What a rule saw but does not grade, in words: each group a count, where it came from and why
 * ("3 tasks requests came from a 2025-11-25 client; this rule is about 2026-07-28 clients").
 * `why.stdio` is given when the rule does not grade stdio traffic (it rests on HTTP), `why.legacy`
 * when it does not grade 2025-11-25 traffic. Empty when nothing in `xs` was left out.
 */
export function ungraded(xs: readonly Exchange[], noun: string, why: { stdio?: string; legacy?: string }): string {
  const stdio = why.stdio ? xs.filter((x) => x.transport === 'stdio') : [];
  const legacy = why.legacy ? xs.filter((x) => !x.modern && !stdio.includes(x)) : [];
  const parts: string[] = [];
  if (stdio.length) parts.push(`${plural(stdio.length, noun)} came over stdio, ${why.stdio}`);
  if (legacy.length) parts.push(`${plural(legacy.length, noun)} came from a 2025-11-25 client${why.legacy}`);
  return parts.join('; ');
}

/** A grade's detail with what it left out after it ("… Not graded: 2 listen requests came over stdio, …."). */
export function noting(detail: string, left: string): string {
  return left ? `${detail} Not graded: ${left}.` : detail;
}
