import { ERROR, EXT, declaresExtension, type CancelTaskParams, type GetTaskParams, type UpdateTaskParams } from '../protocol';
import type { TaskSpec } from '../scenario/task-schema';
import type { ToolSpec } from '../scenario/schema';
import type { TaskRecord } from '../store/types';
import { fail, ok, type EngineCore, type Outcome, type RequestContext } from './context';
import { applyControl, type ControlAction } from './task-control';
import { createLeaseKeeper } from './task-leases';
import { checkTaskResponses, isTerminal, nextDue, settle, statusText } from './task-script';

/**
 * The tasks extension: creation (persisted before the reply), tasks/get, tasks/update,
 * tasks/cancel, timers that advance scripted steps, and change events for listen streams.
 * Another principal's task answers exactly like an unknown one.
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
  /** Read a task for a principal, settled to now; undefined when unknown, foreign or expired. */
  read(taskId: string, principal: string | undefined): Promise<TaskRecord | undefined>;
  snapshot(rec: TaskRecord): Record<string, unknown>;
  control(taskId: string, action: ControlAction): Promise<TaskRecord | undefined>;
  onChange(listener: (rec: TaskRecord) => void): () => void;
  close(): void;
}

const iso = (ms: number) => new Date(ms).toISOString();

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

/** How long a task timer waits before trying a step again after its store failed to write. */
const STORE_RETRY_MS = 2_000;
/** How long a fleet instance's lease on a task lasts without renewal. */
const DEFAULT_LEASE_MS = 3_000;

/** The task manager of one engine; its timers run on the engine's clock. */
export function createTaskManager(core: EngineCore): TaskManager {
  const timers = new Map<string, unknown>();
  const listeners = new Set<(rec: TaskRecord) => void>();
  // The revision each task was last announced at: a write of ours comes back from a shared store's feed, and is not news twice.
  const announced = new Map<string, number>();
  const maxRun = () => core.scenario.settings.maxTaskRunMs;

  const specOf = (rec: TaskRecord): TaskSpec | undefined => core.tool(rec.toolName)?.task;
  const expired = (rec: TaskRecord, now: number) => rec.ttlMs !== null && now >= rec.createdAt + rec.ttlMs;

  function changed(rec: TaskRecord) {
    if ((announced.get(rec.taskId) ?? -1) >= rec.revision) return;
    announced.set(rec.taskId, rec.revision);
    for (const l of listeners) l(rec);
    core.emit('task:changed', rec);
    schedule(rec);
  }

  function schedule(rec: TaskRecord) {
    const old = timers.get(rec.taskId);
    if (old !== undefined) core.clock.clearTimeout(old);
    timers.delete(rec.taskId);
    const spec = specOf(rec);
    if (!spec) return;
    const due = nextDue(rec, spec, maxRun(), core.clock.now());
    if (due === undefined || !Number.isFinite(due)) return;
    if (!keeper) return arm(rec.taskId, due);
    // In a fleet only the instance holding the task's lease runs its timer; when that instance
    // dies, its lease lapses and another one adopts the task (task-leases.ts).
    keeper.hold(rec.taskId).then(
      (mine) => mine && !closed && arm(rec.taskId, due),
      (e: unknown) => core.emit('task:store-error', { taskId: rec.taskId, error: e instanceof Error ? e.message : String(e) }),
    );
  }

  /** Set the task's timer for its step due at `due`, replacing any it had. */
  function arm(taskId: string, due: number) {
    const armed = timers.get(taskId);
    if (armed !== undefined) core.clock.clearTimeout(armed);
    const delay = Math.max(0, due - core.clock.now());
    timers.set(
      taskId,
      core.clock.setTimeout(() => advanceDue(taskId), delay + 1),
    );
  }

  // Set by close(): a step failing after it (its store closed) is not retried.
  let closed = false;
  const keeper =
    core.stores.shared && core.instanceId !== undefined
      ? createLeaseKeeper({
          leases: core.stores.leases,
          clock: core.clock,
          owner: core.instanceId,
          scenarioId: core.scenario.id,
          leaseMs: core.leaseMs ?? DEFAULT_LEASE_MS,
          adopt: (taskId) =>
            void core.stores.tasks.get(taskId).then(
              (rec) => rec && !closed && schedule(rec),
              () => {},
            ),
          onError: (e) => core.emit('task:store-error', { error: e instanceof Error ? e.message : String(e) }),
        })
      : undefined;

  /** Run a task's due step from its timer. */
  function advanceDue(taskId: string) {
    timers.delete(taskId);
    // A store that cannot write (a full disk, an I/O error, a lost connection, a store closed at
    // shutdown) fails this step, never the process: the task stays as stored, a poll meanwhile gets
    // the error, and the step is tried again.
    mutate(taskId, (r, spec2, now) => settle(r, spec2, now, maxRun())).catch((e: unknown) => {
      core.emit('task:store-error', { taskId, error: e instanceof Error ? e.message : String(e) });
      if (!closed && !timers.has(taskId))
        timers.set(
          taskId,
          core.clock.setTimeout(() => advanceDue(taskId), STORE_RETRY_MS),
        );
    });
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
    else if (after && !timers.has(taskId)) schedule(after);
    return after;
  }

  async function read(taskId: string, principal: string | undefined, onRead?: (r: TaskRecord) => void): Promise<TaskRecord | undefined> {
    const now = core.clock.now();
    const raw = await core.stores.tasks.get(taskId);
    if (!raw || (principal !== undefined && raw.principal !== principal)) return undefined;
    if (expired(raw, now)) {
      await core.stores.tasks.delete(taskId);
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
        if (!timers.has(taskId)) schedule(raw);
        return raw;
      }
    }
    return mutate(taskId, (r, s2, t) => {
      onRead?.(r);
      return settle(r, s2, t, maxRun());
    });
  }

  // Another instance wrote a task (a shared store only): announce it here and keep its timer.
  const unwatch = core.stores.watchTasks?.((taskId) => {
    core.stores.tasks.get(taskId).then(
      (rec) => {
        if (rec?.scenarioId === core.scenario.id) changed(rec);
      },
      () => {},
    );
  });

  function snapshot(rec: TaskRecord): Record<string, unknown> {
    const s: Record<string, unknown> = {
      taskId: rec.taskId,
      status: rec.status,
      ...(rec.statusMessage !== undefined ? { statusMessage: rec.statusMessage } : {}),
      createdAt: iso(rec.createdAt),
      lastUpdatedAt: iso(rec.lastUpdatedAt),
      ttlMs: rec.ttlMs,
      ...(rec.pollIntervalMs !== undefined ? { pollIntervalMs: rec.pollIntervalMs } : {}),
    };
    if (rec.status === 'input_required') s.inputRequests = rec.inputRequests ?? {};
    // Inlined exactly as the call would have answered it, resultType included.
    if (rec.status === 'completed') s.result = { resultType: 'complete', ...(rec.result ?? { content: [] }) };
    if (rec.status === 'failed') s.error = rec.error ?? { code: ERROR.internalError, message: 'Task failed' };
    return s;
  }

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
      announced.set(rec.taskId, rec.revision);
      core.emit('task:created', rec);
      schedule(rec);
      return rec;
    },
    async get(ctx, { taskId }) {
      const rec = await read(taskId, ctx.principal, (r) => {
        if (r.cancelRequestedAt !== undefined) r.pollsSinceCancel++;
      });
      const answer = rec ? ok({ resultType: 'complete', ...snapshot(rec) }) : fail(ERROR.invalidParams, NOT_FOUND);
      return core.instanceFaults ? core.instanceFaults.taskView(taskId, answer) : answer;
    },
    async update(ctx, { taskId, inputResponses: responses }) {
      const rec = await read(taskId, ctx.principal);
      if (!rec) return fail(ERROR.invalidParams, NOT_FOUND);
      const problem = checkTaskResponses(rec, responses);
      if (problem) return fail(ERROR.invalidParams, `Invalid params: ${problem}`);
      await mutate(taskId, (r, spec, now) => {
        if (isTerminal(r)) return undefined;
        const pending = (r.inputRequests ?? {}) as Record<string, unknown>;
        for (const [k, v] of Object.entries(responses)) if (k in pending) r.inputResponses[k] = v;
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
    snapshot,
    async control(taskId, action) {
      if (action.kind === 'expire') {
        const rec = await core.stores.tasks.get(taskId);
        if (!rec) return undefined;
        await core.stores.tasks.delete(taskId);
        const gone = { ...rec, status: 'failed' as const, error: { code: ERROR.invalidParams, message: 'Task has expired' } };
        core.emit('task:expired', gone);
        return gone;
      }
      return mutate(taskId, (r, spec, now) => applyControl(r, spec, action, now, maxRun()));
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      keeper?.close();
      unwatch?.();
      for (const t of timers.values()) core.clock.clearTimeout(t);
      timers.clear();
      listeners.clear();
    },
  };
}
