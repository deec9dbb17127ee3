import type { TaskRecord } from '../store/types';
import { checkResponse } from './mrtr';

/**
 * The keys of a task's input requests. tasks.md: a key is unique over the task's lifetime and is
 * never sent again once its response was delivered, so a client that remembers answered keys
 * (as it should) is never left with a question it will not answer. A scenario names its
 * questions (`{{inputs.ok…}}` in its templates): the first time a question goes out under that
 * name, when it is asked again (after a cancel answer, or by a later step) as `ok_2`, `ok_3`, …,
 * and the answer is kept under the scenario's name, so its templates still reach it.
 */

type Requests = Record<string, unknown>;

/** A key this task never sent: `base`, else `base_2`, `base_3`, …; never one of `avoid`. */
export function freshKey(rec: TaskRecord, base: string, avoid: ReadonlySet<string> = new Set()): string {
  const issued = rec.issuedKeys ?? {};
  const free = (key: string) => !Object.hasOwn(issued, key) && !avoid.has(key);
  if (free(base)) return base;
  for (let n = 2; ; n++) if (free(`${base}_${n}`)) return `${base}_${n}`;
}

/** Whether the response to the request sent under `key` was delivered. */
export const wasAnswered = (rec: TaskRecord, key: string) => rec.issuedKeys?.[key] === 'answered';

/** Make `requests` (by the keys they go out under) the task's outstanding input requests. */
export function askFor(rec: TaskRecord, requests: Requests): void {
  rec.inputRequests = requests;
  const issued = { ...rec.issuedKeys };
  for (const key of Object.keys(requests)) if (!Object.hasOwn(issued, key)) issued[key] = 'asked';
  rec.issuedKeys = issued;
}

/** The keys of the outstanding requests that wait for an answer. */
export function openKeys(rec: TaskRecord): string[] {
  return Object.keys(rec.inputRequests ?? {}).filter((key) => !wasAnswered(rec, key));
}

/** The keys among `requests` this task already sent (an operator's question must not reuse one). */
export function reusedKeys(rec: TaskRecord, requests: Requests): string[] {
  return Object.keys(requests).filter((key) => Object.hasOwn(rec.issuedKeys ?? {}, key));
}

/**
 * Take a tasks/update's responses: only those to an open key (any other is ignored, as tasks.md
 * says a server should), each kept under the name its request has in the scenario.
 */
export function takeResponses(rec: TaskRecord, responses: Requests): void {
  const open = new Set(openKeys(rec));
  for (const [key, value] of Object.entries(responses)) {
    if (!open.has(key)) continue;
    const name = Object.entries(rec.inputKeys ?? {}).find(([, sent]) => sent === key)?.[0] ?? key;
    rec.inputResponses = { ...rec.inputResponses, [name]: value };
    rec.issuedKeys = { ...rec.issuedKeys, [key]: 'answered' };
  }
}

/** Validate task input responses against the open requests; returns a problem or undefined. */
export function checkTaskResponses(rec: TaskRecord, responses: Requests): string | undefined {
  const pending = (rec.inputRequests ?? {}) as Record<
    string,
    { method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list'; params: Record<string, unknown> }
  >;
  const open = new Set(openKeys(rec));
  for (const [key, value] of Object.entries(responses)) {
    if (!open.has(key)) continue;
    const problem = checkResponse(key, pending[key]!, value, true);
    if (problem) return problem;
  }
  return undefined;
}
