import { ERROR, EXT, META, declaresExtension, type ListenParams, type SubscriptionFilter } from '../protocol';
import type { TaskRecord } from '../store/types';
import { fail, ok, type EngineCore, type Outcome, type RequestContext } from './context';
import type { TaskManager } from './tasks';

/**
 * `subscriptions/listen`: the acknowledgement first, then only the requested notification
 * kinds, each tagged with the listen request's id. The stream stays open until the client
 * closes it or the engine ends it with a final result.
 */

interface Subscription {
  id: string | number;
  principal: string;
  filter: SubscriptionFilter;
  ctx: RequestContext;
  end: () => void;
}

/** The open subscriptions/listen streams of one engine. */
export interface ListenHub {
  /** subscriptions/listen, with its params parsed (ListenParamsSchema). */
  listen(ctx: RequestContext, params: ListenParams): Promise<Outcome>;
  broadcast(kind: 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged', method: string): void;
  resourceUpdated(uri: string): void;
  /** End every open subscription with its final result. */
  endAll(): void;
  readonly size: number;
}

/** Create the hub; task changes reach the streams whose filter names the task (TaskManager.follow). */
export function createListenHub(core: EngineCore, tasks: TaskManager): ListenHub {
  const subs = new Set<Subscription>();
  const tag = (s: Subscription) => ({ [META.subscriptionId]: s.id });
  // One change reaches every stream following the task with the same record: its snapshot is made once.
  let last: { rec: TaskRecord; snap: Record<string, unknown> } | undefined;
  const snapshotOf = (rec: TaskRecord) => {
    if (last?.rec !== rec) last = { rec, snap: tasks.snapshot(rec) };
    return last.snap;
  };

  // The acknowledgement lists only the tasks this caller can follow: an unknown id and another
  // principal's are left out alike (tasks must not be told apart), as is an expired one.
  const followable = async (ids: string[], principal: string) => {
    const unique = [...new Set(ids)];
    const found = await Promise.all(unique.map((id) => tasks.read(id, principal)));
    return unique.filter((_, i) => found[i] !== undefined);
  };

  return {
    async listen(ctx, params) {
      const want = params.notifications ?? {};
      if (want.taskIds && ctx.era === 'modern' && !declaresExtension(ctx.caps, EXT.tasks)) {
        return fail(
          ERROR.missingRequiredClientCapability,
          `Missing required client capability: taskIds needs the ${EXT.tasks} extension declared in this request`,
          {
            requiredCapabilities: { extensions: { [EXT.tasks]: {} } },
          },
        );
      }
      const s = core.scenario;
      const agreed: SubscriptionFilter = {};
      if (want.toolsListChanged && s.tools.length) agreed.toolsListChanged = true;
      if (want.promptsListChanged && s.prompts.length) agreed.promptsListChanged = true;
      if (want.resourcesListChanged && (s.resources.length || s.resourceTemplates.length)) agreed.resourcesListChanged = true;
      if (want.resourceSubscriptions && (s.resources.length || s.resourceTemplates.length)) agreed.resourceSubscriptions = want.resourceSubscriptions;
      if (want.taskIds && s.tools.some((t) => t.task)) agreed.taskIds = await followable(want.taskIds, ctx.principal);

      ctx.openStream();
      let end!: () => void;
      const ended = new Promise<'server' | 'client'>((resolve) => {
        end = () => resolve('server');
        if (ctx.signal.aborted) resolve('client');
        ctx.signal.addEventListener('abort', () => resolve('client'), { once: true });
      });
      const sub: Subscription = { id: ctx.id, principal: ctx.principal, filter: agreed, ctx, end };
      ctx.notify('notifications/subscriptions/acknowledged', { _meta: tag(sub), notifications: agreed });
      subs.add(sub);
      core.emit('listen:opened', { id: ctx.id, filter: agreed });
      // Each task named is followed on its own: its current snapshot first, then every change,
      // whichever instance of a fleet writes it. Only this principal's tasks are told.
      const send = (rec: TaskRecord) => {
        if (rec.principal === sub.principal) ctx.notify('notifications/tasks', { _meta: tag(sub), ...snapshotOf(rec) });
      };
      const unfollow = await Promise.all((agreed.taskIds ?? []).map((id) => tasks.follow(id, ctx.principal, send)));
      const why = await ended;
      for (const stop of unfollow) stop();
      subs.delete(sub);
      core.emit('listen:closed', { id: ctx.id, by: why });
      return ok({ resultType: 'complete', _meta: tag(sub) });
    },
    broadcast(kind, method) {
      for (const s of subs) if (s.filter[kind]) s.ctx.notify(method, { _meta: tag(s) });
    },
    resourceUpdated(uri) {
      for (const s of subs) if (s.filter.resourceSubscriptions?.includes(uri)) s.ctx.notify('notifications/resources/updated', { _meta: tag(s), uri });
    },
    endAll() {
      for (const s of [...subs]) s.end();
    },
    get size() {
      return subs.size;
    },
  };
}
