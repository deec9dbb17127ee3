import { EXT, HEADER, LEGACY_VERSIONS, META, declaresExtension } from '../protocol';
import { asRecord } from '../shared/records';
import type { StreamEnd } from './exchange-tap';
import type { JournalEntry, JournalFrame } from './journal';

/**
 * A grading view of the journal: JSON-RPC requests with their params, headers, declared
 * capabilities and outcome, plus every task snapshot the client was shown (creation results,
 * tasks/get results and notifications/tasks frames), in the order the client saw them.
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
  /** Lower-case header names. */
  headers: Record<string, string>;
  principal: string;
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
  via: 'create' | 'get' | 'notification';
}

/** The tasks/* methods that name an existing task. */
export const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** Whether a request speaks 2026-07-28 (the same rule the dispatcher uses to pick an era). */
function isModern(method: string, params: Record<string, unknown>, headers: Record<string, string>): boolean {
  const hv = headers[HEADER.protocolVersion.toLowerCase()]?.trim();
  if (hv && (LEGACY_VERSIONS as readonly string[]).includes(hv)) return false;
  const meta = asRecord(params._meta);
  if (method === 'initialize' && !(meta && META.protocolVersion in meta) && !hv) return false;
  return !!hv || !!(meta && META.protocolVersion in meta);
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
      principal: e.principal ?? 'unknown',
      modern: isModern(body.method, params, e.requestHeaders),
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
    const poll = typeof snap.pollIntervalMs === 'number' ? snap.pollIntervalMs : undefined;
    out.push({ taskId: snap.taskId, status: snap.status, pollIntervalMs: poll, at, order, seq, via });
  };
  for (const x of xs) {
    if (x.method === 'tools/call' && x.result?.resultType === 'task') add(x.result, x.endedAt ?? x.at, x.doneOrder, x.seq, 'create');
    if (x.method === 'tasks/get' && x.result) add(x.result, x.endedAt ?? x.at, x.doneOrder, x.seq, 'get');
    for (const f of x.frames) {
      const m = asRecord(f.message);
      if (m?.method === 'notifications/tasks') add(asRecord(m.params), f.at, f.order, x.seq, 'notification');
    }
  }
  return out.sort((a, b) => a.order - b.order);
}

/** The task a tasks/* request names. */
export function taskIdOf(x: Exchange): string | undefined {
  return typeof x.params.taskId === 'string' ? x.params.taskId : undefined;
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
