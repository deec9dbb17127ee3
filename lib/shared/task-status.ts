/** The task statuses of the tasks extension, and which of them end a task. */

/** Every status a task can have. */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
/** One of {@link TASK_STATUSES}. */
export type TaskStatusName = (typeof TASK_STATUSES)[number];

/** Statuses after which a task never changes again. */
export const TERMINAL_STATUSES: readonly TaskStatusName[] = ['completed', 'failed', 'cancelled'];

const TERMINAL = new Set<string>(TERMINAL_STATUSES);

/** Whether a status (any string from the wire) ends a task. */
export function isTerminalStatus(status: unknown): boolean {
  return typeof status === 'string' && TERMINAL.has(status);
}
