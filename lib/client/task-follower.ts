import type { InputRequests, InputResponses } from '../protocol';
import { sleep } from '../shared/clock';
import type { Connection } from './connection-types';
import { openListen, type ListenHandle } from './listen';
import { retryDelayMs } from './reconnect';
import type { RequestOutcome } from './results';
import { readSnapshot, type TaskApi, type ObservedTask } from './task-api';
import { isTerminalStatus } from '../shared/task-status';

/**
 * Follows a task to its end the way the spec and seed 000 ask: poll `tasks/get` no faster
 * than `pollIntervalMs`; optionally listen for `notifications/tasks` (they only wake the
 * follower early, they never shorten the poll cadence); answer each input request key once
 * with `tasks/update`; stop at a terminal status; give up when `createdAt + ttlMs` passes
 * (the server may purge the task then) or the caller's wait bound runs out. A cancel is only
 * a request: after `tasks/cancel` the follower keeps polling until the status is terminal,
 * because the ack is not final and the task may still complete or fail.
 */

export type FollowEnd =
  | { kind: 'terminal'; task: ObservedTask }
  | { kind: 'expired'; task: ObservedTask }
  | { kind: 'timeout'; task: ObservedTask }
  | { kind: 'aborted'; task: ObservedTask }
  | { kind: 'needs-input'; task: ObservedTask }
  | { kind: 'error'; task: ObservedTask; outcome: RequestOutcome; method?: 'tasks/update' };

/** What a follower saw on the way, for a UI or a log. */
export type FollowEvent =
  | { type: 'poll'; task: ObservedTask }
  | { type: 'notification'; task: ObservedTask }
  | { type: 'answered'; keys: string[]; outcome: RequestOutcome }
  | { type: 'cancel-requested'; outcome: RequestOutcome }
  | { type: 'poll-failed'; outcome: RequestOutcome }
  | { type: 'listen-dropped'; reason: string; delayMs: number }
  | { type: 'resynced' };

/** How to follow a task: answering input, waiting, polling, listening. */
export interface FollowOptions {
  /** Answers new input request keys; `undefined` leaves them pending (the user answers later). */
  answer?: (inputRequests: InputRequests, task: ObservedTask) => Promise<InputResponses | undefined>;
  /** What to do at input_required when `answer` gives nothing: keep waiting (UI) or stop (CLI). */
  onUnanswered?: 'wait' | 'stop';
  /** Also subscribe to notifications/tasks (2026-07-28). */
  listen?: boolean;
  onUpdate?: (task: ObservedTask) => void;
  onEvent?: (event: FollowEvent) => void;
  signal?: AbortSignal;
  /** Stop waiting after this many ms (0 = unbounded). */
  waitMs?: number;
  /** Poll interval when the server suggests none (default 1000 ms). */
  defaultPollMs?: number;
}

/** A task being followed: its latest state, how it ended, and cancel. */
export interface TaskFollower {
  readonly task: ObservedTask;
  readonly done: Promise<FollowEnd>;
  /** Send tasks/cancel and keep following until a terminal status. */
  cancel(): Promise<RequestOutcome>;
  /** Poll now (a refresh button, a resync after a dropped listen). */
  refresh(): void;
  /**
   * A snapshot seen elsewhere (a `notifications/tasks` on the caller's own listen). It is a full
   * task, like a poll's answer: a terminal one ends the follower without another tasks/get, and
   * none of them shortens the poll cadence.
   */
  observe(task: ObservedTask): void;
  stop(): void;
}

/** Follow a task from its creation result (or a snapshot). */
export function followTask(conn: Connection, tasks: TaskApi, initial: ObservedTask, options: FollowOptions = {}): TaskFollower {
  const clock = conn.clock;
  const taskId = initial.taskId;
  const startedAt = clock.now();
  const stopper = new AbortController();
  // A closed connection (Disconnect) stops the follower at once, mid-sleep included.
  const signal = AbortSignal.any([stopper.signal, conn.signal, ...(options.signal ? [options.signal] : [])]);
  let latest = initial;
  let cancelRequested = false;
  let forcePoll = false;
  let resultStream: Promise<RequestOutcome> | undefined;
  let wake: (() => void) | undefined;
  const answered = new Set<string>();
  let sub: ListenHandle | undefined;
  const emit = (e: FollowEvent) => options.onEvent?.(e);

  const apply = (t: ObservedTask, report = true) => {
    // A snapshot never moves a task out of a terminal status; ignore stale ones that would.
    if (isTerminalStatus(latest.status) && !isTerminalStatus(t.status)) return;
    latest = t;
    if (report) options.onUpdate?.(t);
  };

  if (options.listen && conn.era === 'modern') {
    sub = openListen(
      conn,
      { taskIds: [taskId] },
      {
        onNotification: (n) => {
          if (n.method !== 'notifications/tasks' || n.params?.taskId !== taskId) return;
          const read = readSnapshot(n.params as Record<string, unknown>, 'extension');
          if ('invalid' in read) return conn.warn(`notifications/tasks: ${read.invalid}`);
          emit({ type: 'notification', task: read.task });
          apply(read.task);
          wake?.();
        },
        onDrop: ({ reason, plan }) => emit({ type: 'listen-dropped', reason, delayMs: plan.delayMs }),
        onResync: () => {
          emit({ type: 'resynced' });
          forcePoll = true;
          wake?.();
        },
      },
      { signal },
    );
  }

  async function answerInput(t: ObservedTask): Promise<'answered' | 'pending' | 'stop' | { refused: RequestOutcome }> {
    const fresh = Object.fromEntries(Object.entries(t.inputRequests ?? {}).filter(([k]) => !answered.has(k)));
    if (!Object.keys(fresh).length || cancelRequested) return 'pending';
    const responses = options.answer ? await options.answer(fresh, t) : undefined;
    if (!responses || !Object.keys(responses).length) return options.onUnanswered === 'stop' ? 'stop' : 'pending';
    const out = await tasks.updateTask(taskId, responses, { signal });
    emit({ type: 'answered', keys: Object.keys(responses), outcome: out });
    // A lost update is asked again on the next poll; an acknowledged key is never asked twice.
    // A refused one is asked of `answer` again (a person may correct it); the CLI stops instead
    // (run), since its stubs would give the same refused answers on every poll.
    if (out.type === 'complete') for (const k of Object.keys(responses)) answered.add(k);
    return out.type === 'error' || out.type === 'invalid' ? { refused: out } : 'answered';
  }

  /**
   * A completed or failed task as the user needs it: with its result or error. A snapshot may
   * lack them: a 2025-11-25 server gives them only on tasks/result, and a 2026-07-28 creation
   * result is a Task, never a DetailedTask, even when its status is already terminal (a task
   * that finished before the server answered), so one tasks/get fetches them.
   */
  async function fillResult(t: ObservedTask): Promise<ObservedTask> {
    if ((t.status !== 'completed' && t.status !== 'failed') || t.result || t.error) return t;
    if (conn.era !== 'legacy') {
      const r = await tasks.getTask(taskId, { signal });
      if (r.type !== 'snapshot' || r.task.status !== t.status) return t;
      emit({ type: 'poll', task: r.task });
      apply(r.task);
      return latest;
    }
    const early = await resultStream;
    const out = early && (early.type === 'complete' || early.type === 'error') ? early : await tasks.taskResult(taskId, { signal });
    if (out.type === 'complete') return { ...t, result: out.result };
    if (out.type === 'error') return { ...t, error: out.error };
    return t;
  }

  async function run(): Promise<FollowEnd> {
    let lastPoll: number | undefined;
    let failures = 0;
    for (;;) {
      if (isTerminalStatus(latest.status)) return { kind: 'terminal', task: await fillResult(latest) };
      if (signal.aborted) return { kind: 'aborted', task: latest };
      if (latest.status === 'input_required') {
        // 2025-11-25: the server asks for input as requests on a tasks/result stream (answered
        // by the connection's onServerRequest); open it once, early, and keep polling meanwhile.
        if (conn.era === 'legacy') resultStream ??= tasks.taskResult(taskId, { signal });
        const r = await answerInput(latest);
        if (r === 'stop') return { kind: 'needs-input', task: latest };
        // Without a person to answer again (the CLI), a refused answer ends the follow, shown as it came.
        if (typeof r === 'object' && options.onUnanswered === 'stop') return { kind: 'error', task: latest, outcome: r.refused, method: 'tasks/update' };
      }
      const now = clock.now();
      const ttlEnd = latest.ttlMs !== null && latest.ttlMs !== undefined ? Date.parse(latest.createdAt) + latest.ttlMs : Infinity;
      if (now >= ttlEnd) return { kind: 'expired', task: latest };
      const waitEnd = options.waitMs ? startedAt + options.waitMs : Infinity;
      if (now >= waitEnd) return { kind: 'timeout', task: latest };
      const interval = Math.max(latest.pollIntervalMs ?? options.defaultPollMs ?? 1_000, failures ? retryDelayMs(failures - 1) : 0);
      const due = lastPoll === undefined ? startedAt + interval : lastPoll + interval;
      if (!forcePoll && now < due) {
        const s = sleep(clock, Math.min(due, ttlEnd, waitEnd) - now, signal);
        wake = s.wake;
        await s.done;
        wake = undefined;
        continue;
      }
      forcePoll = false;
      const r = await tasks.getTask(taskId, { signal });
      lastPoll = clock.now();
      if (r.type === 'snapshot') {
        failures = 0;
        emit({ type: 'poll', task: r.task });
        apply(r.task);
      } else if (r.type === 'failure') {
        if (r.reason === 'aborted') return { kind: 'aborted', task: latest };
        failures++;
        emit({ type: 'poll-failed', outcome: r });
      } else {
        // The server answered but not with the task (unknown or purged id, invalid snapshot).
        emit({ type: 'poll-failed', outcome: r });
        // A poll sent before the TTL but answered after it may find the task already purged
        // (the server may delete it once its TTL is over): that is the TTL ending, not a fault.
        if (lastPoll >= ttlEnd) return { kind: 'expired', task: latest };
        return { kind: 'error', task: latest, outcome: r };
      }
    }
  }

  const done = run().finally(() => sub?.close());
  return {
    get task() {
      return latest;
    },
    done,
    async cancel() {
      cancelRequested = true;
      const out = await tasks.cancelTask(taskId, { signal });
      emit({ type: 'cancel-requested', outcome: out });
      // 2025-11-25 answers with the task itself, already cancelled.
      if (out.type === 'complete' && conn.era === 'legacy') {
        const read = readSnapshot(out.result, 'legacy');
        if (!('invalid' in read)) apply(read.task);
      }
      // No early poll: the cadence stays at pollIntervalMs; the ack itself decides nothing.
      wake?.();
      return out;
    },
    refresh() {
      forcePoll = true;
      wake?.();
    },
    observe(task) {
      if (task.taskId !== taskId) return;
      // The caller already has it; onUpdate is for what the follower itself fetched.
      apply(task, false);
      wake?.();
    },
    stop() {
      stopper.abort(new Error('follower stopped'));
    },
  };
}
