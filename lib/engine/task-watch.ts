import type { TaskRecord } from '../store/types';
import { isTerminal } from './task-script';

/**
 * Who hears a task change: the listen streams and 2025-11-25 `tasks/result` waits of this engine,
 * per task id. Each task watched keeps the last revision it announced, because a shared store
 * (PostgreSQL) echoes this instance's own writes back through its change feed and a write must
 * not be news twice. Only watched tasks are kept, and a task leaves the map when its last watcher
 * goes, when it ends (a terminal status is the last news a task has) or when it is evicted, so
 * the map is as big as what is being listened to, never as big as the store.
 */

type Watcher = (rec: TaskRecord) => void;

interface Watched {
  /** The highest revision announced to this task's watchers (-1: none yet). */
  revision: number;
  fns: Set<Watcher>;
}

/** The engine's watchers of tasks, by task id. */
interface TaskWatch {
  /** Call `fn` with every later revision of the task; returns the unwatch. */
  watch(taskId: string, fn: Watcher): () => void;
  /** Whether anyone here listens to the task (a shared store's feed reads only those). */
  has(taskId: string): boolean;
  /** Tell the task's watchers about `rec` unless they heard this revision; false when it was old news. */
  announce(rec: TaskRecord): boolean;
  /** The task is gone (expired, deleted): drop its watchers. */
  forget(taskId: string): void;
  /** How many tasks are watched (what the map holds). */
  readonly size: number;
  clear(): void;
}

export function createTaskWatch(): TaskWatch {
  const watched = new Map<string, Watched>();
  return {
    watch(taskId, fn) {
      let w = watched.get(taskId);
      if (!w) {
        w = { revision: -1, fns: new Set() };
        watched.set(taskId, w);
      }
      const entry = w;
      entry.fns.add(fn);
      return () => {
        entry.fns.delete(fn);
        // Only the entry still in the map: a task that ended and is watched anew has a new one.
        if (entry.fns.size === 0 && watched.get(taskId) === entry) watched.delete(taskId);
      };
    },
    has: (taskId) => watched.has(taskId),
    announce(rec) {
      const w = watched.get(rec.taskId);
      if (!w) return true;
      if (w.revision >= rec.revision) return false;
      w.revision = rec.revision;
      if (isTerminal(rec)) watched.delete(rec.taskId);
      for (const fn of [...w.fns]) fn(rec);
      return true;
    },
    forget: (taskId) => void watched.delete(taskId),
    get size() {
      return watched.size;
    },
    clear: () => watched.clear(),
  };
}
