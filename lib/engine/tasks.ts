import { ERROR, EXT, declaresExtension, type CancelTaskParams, type GetTaskParams, type UpdateTaskParams } from '../protocol';
import type { TaskSpec } from '../scenario/task-schema';
import type { ToolSpec } from '../scenario/schema';
import type { TaskRecord } from '../store/types';
import { fail, ok, type EngineCore, type Outcome, type RequestContext } from './context';
import { applyControl, type ControlAction } from './task-control';
import { checkTaskResponses, takeResponses } from './task-input-keys';
import { isTerminal, settle, statusText } from './task-script';
import { taskSnapshot } from './task-snapshot';
import { createTaskTimers } from './task-timers';
import { createTaskWatch } from './task-watch';

/**
 * The tasks extension: creation (persisted before the reply), tasks/get, tasks/update,
 * tasks/cancel and the control room's actions. Timed steps run on `task-timers.ts`, changes reach
 * listeners through `task-watch.ts`, the wire view is `task-snapshot.ts`. Another principal's task,
 * or another scenario's (the store is the host's), answers exactly like an unknown one.
 */

/** The answer to a task that is unknown, expired or another principal's (they must not be told apart). */
export const NOT_FOUND = 'Failed to retrieve task: Task not found';

/** The engine's tasks: the tasks/* methods, creation from tools/call, and the control room's actions. */
export interface TaskManager {
  /** Create and persist a task for a tools/call (before the reply that names it). */
  create(ctx: RequestContext, tool: ToolSpec, args: Record<string, unknown>, inputs: Record<string, unknown>): Promise<TaskRecord>;
  /** tasks/get, tasks/update and tasks/cancel, after {@link needsTasksExtension} and with their params parsed. */
  get(ctx: RequestContext, params: GetTaskParams): Promise<Outcome>;
  update(ctx: RequestContext, params: UpdateTaskParams): Promise<Outcome>;
  cancel(ctx: RequestContext, params: CancelTaskParams): Promise<Outcome>;
  /** Read a task for a principal, settled to now; undefined when unknown, foreign (principal or scenario) or expired. */
  read(taskId: string, principal: string | undefined): Promise<TaskRecord | undefined>;
  /** {@link read} as a client is answered: a lagging instance (instance-skew) shows what it saw last. */
  view(taskId: string, principal: string, onRead?: (r: TaskRecord) => void): Promise<TaskRecord | undefined>;
  snapshot(rec: TaskRecord): Record<string, unknown>;
  control(taskId: string, action: ControlAction): Promise<TaskRecord | undefined>;
  /** Hear every later change of one task, from this instance or (a shared store) any other; returns the unwatch. */
  watch(taskId: string, fn: (rec: TaskRecord) => void): () => void;
  /**
   * {@link watch}, and `fn` gets the task as it is now first (unless a change got there before):
   * a listen stream's initial snapshot. A task unknown to `principal`, or already ended, is not watched on.
   */
  follow(taskId: string, principal: string, fn: (rec: TaskRecord) => void): Promise<() => void>;
  close(): void;
}

/** The gate of the tasks/* methods: a 2026-07-28 request must declare the tasks extension. */
export function needsTasksExtension(ctx: RequestContext): Outcome | undefined {
  if (ctx.era !== 'modern' || declaresExtension(ctx.caps, EXT.tasks)) return undefined;
  return fail(
    ERROR.missingRequiredClientCapability,
    `Missing required client capability: ${ctx.method} needs the ${EXT.tasks} extension declared in this request`,
    {
      requiredCapabilities: { extensions: { [EXT.tasks]: {} } },
    },
  );
}

/** The task manager of one engine; its timers run on the engine's clock. */
export function createTaskManager(core: EngineCore): TaskManager {
  const maxRun = () => core.scenario.settings.maxTaskRunMs;
  const specOf = (rec: TaskRecord): TaskSpec | undefined => core.tool(rec.toolName)?.task;
  const expired = (rec: TaskRecord, now: number) => rec.ttlMs !== null && now >= rec.createdAt + rec.ttlMs;
  const watchers = createTaskWatch();
  const timers = createTaskTimers(core, specOf, maxRun, (taskId) => mutate(taskId, (r, spec, now) => settle(r, spec, now, maxRun())));

  /** A new revision: its watchers, the control room, and the timer of its next step. */
  function changed(rec: TaskRecord) {
    if (!watchers.announce(rec)) return;
    core.emit('task:changed', rec);
    timers.schedule(rec);
  }

  /** The task left the store (expired, deleted): nothing of it is kept. */
  function evicted(taskId: string) {
    watchers.forget(taskId);
    timers.forget(taskId);
  }

  /** Transactional change; emits when the stored revision moved. */
  async function mutate(taskId: string, fn: (rec: TaskRecord, spec: TaskSpec, now: number) => TaskRecord | undefined): Promise<TaskRecord | undefined> {
    let before = -1;
    const now = core.clock.now();
    const after = await core.stores.tasks.update(taskId, (cur) => {
      before = cur.revision;
      const spec = specOf(cur);
      if (!spec) return undefined;
      const snapshotBefore = JSON.stringify(cur);
      const next = fn(cur, spec, now);
      return next && JSON.stringify(next) !== snapshotBefore ? next : undefined;
    });
    if (after && after.revision !== before) changed(after);
    else if (after && !timers.has(taskId)) timers.schedule(after);
    else if (!after) evicted(taskId);
    return after;
  }

  async function read(taskId: string, principal: string | undefined, onRead?: (r: TaskRecord) => void): Promise<TaskRecord | undefined> {
    const now = core.clock.now();
    const raw = await core.stores.tasks.get(taskId);
    if (!raw || raw.scenarioId !== core.scenario.id || (principal !== undefined && raw.principal !== principal)) return undefined;
    if (expired(raw, now)) {
      await core.stores.tasks.delete(taskId);
      evicted(taskId);
      return undefined;
    }
    // Most polls change nothing: settle a copy first and only open a write transaction when the
    // record would change (a due step, a cancel being counted down).
    const spec = specOf(raw);
    if (spec) {
      const before = JSON.stringify(raw);
      const probe = structuredClone(raw);
      onRead?.(probe);
      if (JSON.stringify(settle(probe, spec, now, maxRun())) === before) {
        if (!timers.has(taskId)) timers.schedule(raw);
        return raw;
      }
    }
    return mutate(taskId, (r, s2, t) => {
      onRead?.(r);
      return settle(r, s2, t, maxRun());
    });
  }

  // The primary is read (a due step is written there) and the answer is the replica's.
  async function view(taskId: string, principal: string, onRead?: (r: TaskRecord) => void): Promise<TaskRecord | undefined> {
    const rec = await read(taskId, principal, onRead);
    const shown = core.instanceFaults ? core.instanceFaults.replicaView(taskId, rec) : rec;
    return shown?.principal === principal ? shown : undefined;
  }

  // Another instance wrote a task (a shared store only). Read it only when someone here listens to
  // it, or this instance runs its timed steps (its lease): most tasks are neither on most instances.
  const unwatch = core.stores.watchTasks?.((taskId) => {
    if (!watchers.has(taskId) && !timers.leads(taskId)) return;
    core.stores.tasks.get(taskId).then(
      (rec) => {
        if (!rec) evicted(taskId);
        // Still watched: a listener that left, or a task that ended, while the read was out is not told again.
        else if (rec.scenarioId === core.scenario.id && (watchers.has(taskId) || timers.leads(taskId))) changed(rec);
      },
      () => {},
    );
  });

  return {
    async create(ctx, tool, args, inputs) {
      const spec = tool.task!;
      const now = core.clock.now();
      const settings = core.scenario.settings;
      const rec: TaskRecord = {
        taskId: core.ids.taskId(),
        principal: ctx.principal,
        scenarioId: core.scenario.id,
        toolName: tool.name,
        args,
        era: ctx.era,
        status: 'working',
        statusMessage: spec.statusMessage ?? spec.steps[0]?.statusMessage ?? spec.steps[0]?.progress?.[0],
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: spec.ttlMs !== undefined ? spec.ttlMs : settings.taskTtlMs,
        pollIntervalMs: spec.pollIntervalMs ?? settings.pollIntervalMs,
        stepIndex: 0,
        stepStartedAt: now,
        inputResponses: {},
        pollsSinceCancel: 0,
        clientCapabilities: ctx.caps as Record<string, unknown>,
        data: Object.keys(inputs).length ? { inputs } : undefined,
        revision: 0,
      };
      if (rec.statusMessage !== undefined) rec.statusMessage = statusText(rec, rec.statusMessage);
      settle(rec, spec, now, maxRun());
      if (rec.statusMessage === undefined) delete rec.statusMessage;
      await core.stores.tasks.create(rec);
      core.emit('task:created', rec);
      timers.schedule(rec);
      return rec;
    },
    async get(ctx, { taskId }) {
      const rec = await view(taskId, ctx.principal, (r) => {
        if (r.cancelRequestedAt !== undefined) r.pollsSinceCancel++;
      });
      return rec ? ok({ resultType: 'complete', ...taskSnapshot(rec) }) : fail(ERROR.invalidParams, NOT_FOUND);
    },
    async update(ctx, { taskId, inputResponses: responses }) {
      const rec = await read(taskId, ctx.principal);
      if (!rec) return fail(ERROR.invalidParams, NOT_FOUND);
      const problem = checkTaskResponses(rec, responses);
      if (problem) return fail(ERROR.invalidParams, `Invalid params: ${problem}`);
      await mutate(taskId, (r, spec, now) => {
        if (isTerminal(r)) return undefined;
        takeResponses(r, responses);
        return settle(r, spec, now, maxRun());
      });
      return ok({ resultType: 'complete' });
    },
    async cancel(ctx, { taskId }) {
      const rec = await read(taskId, ctx.principal);
      if (!rec) return fail(ERROR.invalidParams, NOT_FOUND);
      await mutate(taskId, (r, spec, now) => {
        if (isTerminal(r) || r.cancelRequestedAt !== undefined) return undefined;
        r.cancelRequestedAt = now;
        r.pollsSinceCancel = 0;
        return settle(r, spec, now, maxRun());
      });
      return ok({ resultType: 'complete' });
    },
    read: (taskId, principal) => read(taskId, principal),
    view,
    snapshot: taskSnapshot,
    async control(taskId, action) {
      // The store is every scenario's; another scenario's task is not this engine's (driving it did nothing, yet answered).
      const rec = await core.stores.tasks.get(taskId);
      if (!rec || rec.scenarioId !== core.scenario.id) return undefined;
      if (action.kind === 'expire') {
        await core.stores.tasks.delete(taskId);
        evicted(taskId);
        const gone = { ...rec, status: 'failed' as const, error: { code: ERROR.invalidParams, message: 'Task has expired' } };
        core.emit('task:expired', gone);
        return gone;
      }
      return mutate(taskId, (r, spec, now) => applyControl(r, spec, action, now, maxRun()));
    },
    watch: (taskId, fn) => watchers.watch(taskId, fn),
    async follow(taskId, principal, fn) {
      // Watch first, then read: a change landing during the read is heard, and the older revision the read may return is not sent after it.
      let heard = -1;
      const stop = watchers.watch(taskId, (r) => {
        heard = Math.max(heard, r.revision);
        fn(r);
      });
      const rec = await read(taskId, principal);
      if (!rec) {
        stop();
        return stop;
      }
      // The first snapshot is this instance's view (stale or none while it lags), later changes the primary's fan-out; news goes to every watcher.
      const shown = core.instanceFaults ? core.instanceFaults.replicaView(taskId, rec) : rec;
      if (shown && heard < shown.revision && !(shown === rec && watchers.has(taskId) && watchers.announce(rec))) fn(shown);
      if (isTerminal(rec)) stop();
      return stop;
    },
    close() {
      unwatch?.();
      timers.close();
      watchers.clear();
    },
  };
}
