/**
 * Rules shared by every store implementation, so the in-memory and SQLite stores cannot drift
 * apart on validation, expiry arithmetic or how ledger values are serialised. Pure TypeScript:
 * this file is bundled for browsers and MSW as well as Node.
 */
import { TASK_STATUSES } from '../shared/task-status';
import type { StoreOptions, StoredTaskStatus, TaskListFilter, TaskRecord } from './types';

/** Default bound of the ReplayStore. */
const DEFAULT_REPLAY_MAX_ENTRIES = 1000;

/** Statuses that {@link TaskListFilter.activeOnly} keeps. */
export const ACTIVE_TASK_STATUSES: readonly StoredTaskStatus[] = ['working', 'input_required'];

const KNOWN_STATUSES: ReadonlySet<string> = new Set<string>(TASK_STATUSES);

/** {@link StoreOptions} with defaults applied. */
interface ResolvedStoreOptions {
  replayMaxEntries: number;
}

/** Apply defaults and reject options that would make a store silently useless. */
export function resolveStoreOptions(options: StoreOptions = {}): ResolvedStoreOptions {
  const replayMaxEntries = options.replayMaxEntries ?? DEFAULT_REPLAY_MAX_ENTRIES;
  if (!Number.isSafeInteger(replayMaxEntries) || replayMaxEntries < 1) {
    throw new Error(`Failed to open stores: replayMaxEntries must be a positive integer, got ${String(replayMaxEntries)}`);
  }
  return { replayMaxEntries };
}

/** Epoch ms after which the task may be purged, or null when retention is unlimited. */
export function taskExpiresAt(record: Pick<TaskRecord, 'createdAt' | 'ttlMs'>): number | null {
  return record.ttlMs === null || record.ttlMs === undefined ? null : record.createdAt + record.ttlMs;
}

/**
 * Check the fields a store indexes. The rest of the record is opaque, but a bad indexed field
 * would be stored as garbage (or break purge/list), so it is a caller bug worth failing loudly on.
 */
export function assertTaskRecord(record: TaskRecord, action: string): void {
  const fail = (reason: string): never => {
    throw new Error(`Failed to ${action}: ${reason}`);
  };
  if (record === null || typeof record !== 'object') fail('record must be an object');
  if (typeof record.taskId !== 'string' || record.taskId === '') fail('taskId must be a non-empty string');
  if (typeof record.principal !== 'string') fail('principal must be a string');
  if (typeof record.scenarioId !== 'string') fail('scenarioId must be a string');
  if (!KNOWN_STATUSES.has(record.status)) fail(`unknown status ${JSON.stringify(record.status)}`);
  if (!Number.isFinite(record.createdAt)) fail('createdAt must be a finite number');
  if (record.ttlMs !== null && !(Number.isFinite(record.ttlMs) && record.ttlMs >= 0)) {
    fail('ttlMs must be null or a non-negative number');
  }
  if (!Number.isSafeInteger(record.revision)) fail('revision must be an integer');
}

/** Validate {@link TaskListFilter.limit}; undefined means no limit. */
export function normalizeListLimit(limit: number | undefined): number | undefined {
  if (limit === undefined) return undefined;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new Error(`Failed to list tasks: limit must be a non-negative integer, got ${String(limit)}`);
  }
  return limit;
}

/** Whether a record passes the list filter (limit aside). */
export function matchesTaskFilter(record: TaskRecord, filter: TaskListFilter): boolean {
  if (filter.principal !== undefined && record.principal !== filter.principal) return false;
  if (filter.scenarioId !== undefined && record.scenarioId !== filter.scenarioId) return false;
  if (filter.activeOnly && !ACTIVE_TASK_STATUSES.includes(record.status)) return false;
  return true;
}

/**
 * Serialise a ledger value. Both stores keep ledger values as JSON text so that the executing
 * call and every retry receive exactly the same receipt, in memory as on disk. `undefined`
 * (a mutation with no receipt) is encoded as null.
 */
function encodeLedgerValue(value: unknown): string | null {
  if (value === undefined) return null;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new Error(`Failed to record mutation: value is not JSON-serialisable (${(error as Error).message})`, {
      cause: error,
    });
  }
  if (json === undefined) throw new Error('Failed to record mutation: value is not JSON-serialisable');
  return json;
}

/**
 * Run a ledger execution and encode its value. The execution must be one synchronous step: a
 * backend holds its claim on the key (a transaction, a row lock) only while it runs, so a promise
 * would finish after the claim was released.
 */
export function executeForLedger(key: string, execute: () => unknown): string | null {
  const value = execute();
  if (typeof (value as { then?: unknown } | null)?.then === 'function') {
    throw new Error(`Failed to record mutation ${key}: execute returned a promise; it must return the receipt itself`);
  }
  return encodeLedgerValue(value);
}

/** Inverse of {@link encodeLedgerValue}. */
export function decodeLedgerValue(json: string | null): unknown {
  return json === null ? undefined : JSON.parse(json);
}
