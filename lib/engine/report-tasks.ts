import { decodeHeaderValue, HEADER } from '../protocol';
import type { Scenario } from '../scenario/schema';
import type { Grade, GradeContext } from './report-card';
import { fingerprint } from '../shared/fingerprint';
import { isTerminalStatus } from '../shared/task-status';
import {
  ABOUT_MODERN,
  declaresTasks,
  lastSighting,
  noting,
  plural,
  pollsOf,
  seqs,
  TASK_METHODS,
  taskIdOf,
  ungraded,
  type Exchange,
  type TaskSighting,
} from './report-view';

/** Grades about the tasks extension: cadence, Mcp-Name, extension declared, terminal stop (cancel ack: report-cancel.ts). */

/** Polls may come this much earlier than `pollIntervalMs` (timer jitter). */
const POLL_JITTER = 0.1;
/** A poll that races a pushed terminal notification by less than this is not held against the client. */
const PUSH_RACE_MS = 100;

const SPEC = {
  poll: 'MCP 2026-07-28 tasks extension: tasks/get (clients SHOULD respect pollIntervalMs)',
  name: 'MCP 2026-07-28 Streamable HTTP request headers: Mcp-Name mirrors params.taskId on tasks/get, tasks/update, tasks/cancel',
  ext: 'MCP 2026-07-28 tasks extension: negotiation (declare io.modelcontextprotocol/tasks per request; -32021 otherwise)',
  terminal: 'MCP 2026-07-28 tasks extension: Task status machine (terminal is final; poll until terminal)',
};

/** A listen for the task opened after an earlier listen for it dropped (the reconnect plan's re-listen). */
const listensFor = (x: Exchange, taskId: string) => ((x.params.notifications as { taskIds?: unknown[] } | undefined)?.taskIds ?? []).includes(taskId);
const relistens = (xs: readonly Exchange[], listen: Exchange, taskId: string) =>
  listensFor(listen, taskId) && xs.some((d) => d.method === 'subscriptions/listen' && d.end === 'dropped' && d.order < listen.order && listensFor(d, taskId));
const taskIds = (xs: readonly Exchange[], sightings: readonly TaskSighting[]) =>
  new Set([...sightings.map((s) => s.taskId), ...xs.map(taskIdOf).filter((t): t is string => !!t)]);

/** tasks/get no faster than the pollIntervalMs of the last snapshot the client saw. */
export function gradePollCadence({ xs, sightings }: GradeContext): Grade {
  const base = { id: 'poll-cadence', title: 'Poll cadence honours pollIntervalMs', specRef: SPEC.poll };
  const checked: number[] = [];
  const bad: { prev: Exchange; poll: Exchange; gap: number; interval: number }[] = [];
  for (const taskId of taskIds(xs, sightings)) {
    let prev: Exchange | undefined;
    for (const poll of pollsOf(xs, taskId)) {
      const seen = lastSighting(sightings, taskId, poll.order);
      // A tasks/update or tasks/cancel changes the task, and a re-listen after a dropped stream
      // means pushed snapshots were lost: one prompt poll after either is expected.
      const between = (x: Exchange) => !!prev && x.order > prev.order && x.order < poll.order;
      const reset = xs.some(
        (x) =>
          between(x) &&
          (((x.method === 'tasks/update' || x.method === 'tasks/cancel') && taskIdOf(x) === taskId) ||
            (x.method === 'subscriptions/listen' && relistens(xs, x, taskId))),
      );
      if (prev && seen && !isTerminalStatus(seen.status) && seen.pollIntervalMs !== undefined && !reset) {
        const gap = poll.at - prev.at;
        checked.push(prev.seq, poll.seq);
        if (gap < seen.pollIntervalMs * (1 - POLL_JITTER)) bad.push({ prev, poll, gap, interval: seen.pollIntervalMs });
      }
      prev = poll;
    }
  }
  const [w] = bad;
  if (w) {
    const detail = `${plural(bad.length, 'poll')} came faster than pollIntervalMs; e.g. tasks/get #${w.poll.seq} for task ${fingerprint(taskIdOf(w.poll)!)} came ${w.gap} ms after #${w.prev.seq} while pollIntervalMs was ${w.interval}.`;
    return { ...base, status: 'fail', detail, evidence: seqs(bad.flatMap((b) => [b.prev.seq, b.poll.seq])) };
  }
  if (!checked.length) return { ...base, status: 'not-observed', detail: 'No two consecutive tasks/get polls of an unfinished task were seen.', evidence: [] };
  return {
    ...base,
    status: 'pass',
    detail: `Every consecutive poll was at least ${Math.round((1 - POLL_JITTER) * 100)}% of pollIntervalMs apart (${plural(new Set(checked).size, 'poll')} checked).`,
    evidence: seqs(checked),
  };
}

/**
 * Every tasks/* request carried Mcp-Name equal to params.taskId (rejected requests included). A
 * 2026-07-28 header over HTTP: stdio has no headers, and 2025-11-25 defines no Mcp-Name. A
 * request whose taskId is no string has nothing to mirror: its mistake is the body (-32602).
 */
export function gradeMcpName({ xs }: GradeContext): Grade {
  const base = { id: 'mcp-name', title: 'Mcp-Name on tasks requests', specRef: SPEC.name };
  const all = xs.filter((x) => TASK_METHODS.has(x.method));
  const tasks = all.filter((x) => x.modern && x.transport === 'http' && typeof x.params.taskId === 'string');
  const left = ungraded(all, 'tasks request', { stdio: 'which carries no Mcp-Name header', legacy: ABOUT_MODERN });
  if (!tasks.length)
    return { ...base, status: 'not-observed', detail: left ? `${left}.` : 'No tasks/get, tasks/update or tasks/cancel request was seen.', evidence: [] };
  const bad = tasks.filter((x) => {
    const raw = x.headers[HEADER.name.toLowerCase()];
    if (raw === undefined) return true;
    const decoded = decodeHeaderValue(raw);
    return !decoded.ok || decoded.value !== taskIdOf(x);
  });
  const [firstBad] = bad;
  if (firstBad) {
    const missing = bad.filter((x) => x.headers[HEADER.name.toLowerCase()] === undefined).length;
    const detail = `${plural(bad.length, 'tasks request')} of ${tasks.length} had ${missing === bad.length ? 'no' : missing ? 'a missing or wrong' : 'a wrong'} Mcp-Name header (first: ${firstBad.method} #${firstBad.seq}).`;
    return { ...base, status: 'fail', detail: noting(detail, left), evidence: seqs(bad.map((x) => x.seq)) };
  }
  return {
    ...base,
    status: 'pass',
    detail: noting(`All ${plural(tasks.length, 'tasks request')} carried Mcp-Name equal to params.taskId.`, left),
    evidence: seqs(tasks.map((x) => x.seq)),
  };
}

function needsTasks(x: Exchange, scenario: Scenario): boolean {
  if (!x.modern) return false;
  if (TASK_METHODS.has(x.method)) return true;
  if (x.method === 'subscriptions/listen') {
    const n = x.params.notifications as { taskIds?: unknown } | undefined;
    return Array.isArray(n?.taskIds);
  }
  if (x.method !== 'tools/call') return false;
  return scenario.tools.find((t) => t.name === x.params.name)?.task?.mode === 'required';
}

/**
 * Requests that need the tasks extension declared it. Nothing in tools/list says a tool runs
 * only as a task, so a -32021 answer followed by the same call with the extension declared counts
 * as handled correctly; a -32021 the client never recovered from fails.
 */
export function gradeExtensionDeclared({ xs, scenario }: GradeContext): Grade {
  const base = { id: 'extension-declared', title: 'Tasks extension declared where a task is expected', specRef: SPEC.ext };
  const need = xs.filter((x) => needsTasks(x, scenario));
  // A 2025-11-25 client opts in per call (params.task) under the capabilities of its initialize: there is no extension to declare.
  const legacyTasks = xs.filter((x) => !x.modern && (x.method.startsWith('tasks/') || (x.method === 'tools/call' && x.params.task !== undefined)));
  const left = ungraded(legacyTasks, 'task request', { legacy: `, which opts in per call with params.task${ABOUT_MODERN}` });
  if (!need.length)
    return {
      ...base,
      status: 'not-observed',
      detail: left ? `${left}.` : 'No call of a task-only tool, tasks/* request or task listen was seen.',
      evidence: [],
    };
  const sameTarget = (a: Exchange, b: Exchange) =>
    a.method === b.method && a.principal === b.principal && (a.params.name ?? a.params.taskId) === (b.params.name ?? b.params.taskId);
  const undeclared = need.filter((x) => !declaresTasks(x));
  const recovered = undeclared.filter((x) => need.some((y) => y.order > x.order && declaresTasks(y) && sameTarget(x, y)));
  const failed = undeclared.filter((x) => !recovered.includes(x));
  const [x] = failed;
  if (x) {
    return {
      ...base,
      status: 'fail',
      detail: noting(
        `${plural(failed.length, 'request')} needed the tasks extension without declaring it and ${failed.length === 1 ? 'was' : 'were'} never retried with it (first: ${x.method}${typeof x.params.name === 'string' ? ` ${x.params.name}` : ''} #${x.seq}).`,
        left,
      ),
      evidence: seqs(failed.map((x) => x.seq)),
    };
  }
  const note = recovered.length ? ` (${plural(recovered.length, 'call')} answered -32021 first, then retried with the extension)` : '';
  return {
    ...base,
    status: 'pass',
    detail: noting(`${plural(need.length, 'request')} needing the tasks extension declared it${note}.`, left),
    evidence: seqs(need.map((x) => x.seq)),
  };
}

/** No tasks/get for a task after the client was shown a terminal status for it. */
export function gradeStopsAtTerminal({ xs, sightings }: GradeContext): Grade {
  const base = { id: 'stops-at-terminal', title: 'Polling stops at a terminal status', specRef: SPEC.terminal };
  const evidence: number[] = [];
  const bad: { terminal: TaskSighting; polls: Exchange[] }[] = [];
  let finished = 0;
  for (const taskId of taskIds(xs, sightings)) {
    const terminal = sightings.find((s) => s.taskId === taskId && isTerminalStatus(s.status));
    if (!terminal) continue;
    finished++;
    const late = pollsOf(xs, taskId).filter((p) => p.order > terminal.order && !(terminal.via === 'notification' && p.at - terminal.at < PUSH_RACE_MS));
    evidence.push(terminal.seq);
    if (late.length) bad.push({ terminal, polls: late });
  }
  const [b] = bad;
  // A sighting is only kept with at least one late poll.
  const firstLate = b?.polls[0];
  if (b && firstLate) {
    const detail = `${plural(
      bad.reduce((n, x) => n + x.polls.length, 0),
      'tasks/get',
    )} after a terminal status; e.g. task ${fingerprint(b.terminal.taskId)} was shown ${b.terminal.status} in #${b.terminal.seq} and polled again in #${firstLate.seq}.`;
    return { ...base, status: 'fail', detail, evidence: seqs(bad.flatMap((x) => [x.terminal.seq, ...x.polls.map((p) => p.seq)])) };
  }
  if (!finished) return { ...base, status: 'not-observed', detail: 'The client was not shown a terminal task status.', evidence: [] };
  return { ...base, status: 'pass', detail: `Polling stopped after the terminal status of ${plural(finished, 'task')}.`, evidence: seqs(evidence) };
}
