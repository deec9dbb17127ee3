import type { Frame } from '../client/frames';
import { asRecord } from '../shared/records';
import type { InspectorStore } from './inspector-store';
import { endTerminal, noteTaskAnswer, notifiedSnapshot, openTaskExchange, taskEvents, taskExchangeKey, type TaskExchange } from './recorded-tasks';

/**
 * The tasks slice fed from frames as they arrive (a live tap), the way `seedRecordedTasks` feeds
 * it from a whole recording, but incrementally: each batch touches only its own frames and the
 * task exchanges still waiting for their answer, so a long session costs per frame what a short
 * one does instead of replaying everything on every batch.
 */

/** Exchanges awaiting an answer past this many are forgotten, oldest first (a client that never hears back). */
const MAX_OPEN = 1000;

interface LiveTaskFeed {
  /** Apply new frames, in arrival order (one store update). */
  push(frames: readonly Frame[]): void;
  /** Task exchanges still waiting for their answer. */
  readonly open: number;
}

/** The task ids a frame's exchange names (its params, its result, a legacy result's task). */
function idsOf(...values: unknown[]): string[] {
  return values.flatMap((v) => {
    const r = asRecord(v);
    const id = r?.taskId ?? asRecord(r?.task)?.taskId;
    return typeof id === 'string' ? [id] : [];
  });
}

/** Create the feed for one store. */
export function createLiveTaskFeed(store: InspectorStore): LiveTaskFeed {
  const tasks = () => store.getState().tasks;
  const open = new Map<string, TaskExchange>();
  // taskEvents notes the tasks it creates here; the feed ends tasks by what each batch touched.
  const created = new Set<string>();
  return {
    push(frames) {
      const touched = new Set<string>();
      tasks().batch(() => {
        for (const f of frames) {
          const pushed = notifiedSnapshot(f, tasks);
          if (pushed) {
            pushed.run();
            for (const id of idsOf(asRecord(f.body)?.params)) touched.add(id);
            continue;
          }
          const key = taskExchangeKey(f);
          if (key === undefined) continue;
          const x = open.get(key);
          if (!x) {
            const opened = openTaskExchange(f);
            if (!opened) continue;
            open.set(key, opened);
            if (open.size > MAX_OPEN) open.delete(open.keys().next().value!);
            for (const e of taskEvents(opened, tasks, created)) if (e.on === 'request') e.run();
          } else if (noteTaskAnswer(x, f)) {
            open.delete(key);
            for (const e of taskEvents(x, tasks, created)) if (e.on === 'answer') e.run();
            for (const id of idsOf(x.params, x.result)) touched.add(id);
          }
        }
      });
      // Only the tasks this batch touched can have reached their end.
      endTerminal(tasks, touched);
      created.clear();
    },
    get open() {
      return open.size;
    },
  };
}
