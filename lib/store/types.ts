import type { TaskStatusName } from '../shared/task-status';
/**
 * Durable stores used by the mock engine. Every method returns a promise so that a network
 * database (PostgreSQL, shared by a fleet of mock instances) fits behind the same interface as
 * memory and SQLite. Atomicity no longer comes from running synchronously: `update` is a
 * transaction (or a conditional write on the revision) in every backend, and `runOnce` claims
 * its key in the store before executing, so two instances can never both execute one key.
 */

/** Task lifecycle status of the 2026-07-28 tasks extension (legacy uses the same names). */
export type StoredTaskStatus = TaskStatusName;

/** A JSON-RPC error object as stored on a failed task. */
interface StoredError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * Everything the engine needs to resume a task in a new process. Times are epoch milliseconds.
 * The store treats the record as opaque JSON apart from the indexed fields
 * (taskId, principal, scenarioId, status, createdAt, ttlMs).
 */
export interface TaskRecord {
  taskId: string;
  /** Who may see the task: bearer subject or `anonymous`, scoped by endpoint. */
  principal: string;
  scenarioId: string;
  toolName: string;
  args: Record<string, unknown>;
  era: 'modern' | 'legacy';
  status: StoredTaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  /** Retention from creation; null means unlimited. */
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** Index of the script step being executed and when it began. */
  stepIndex: number;
  stepStartedAt: number;
  /** Outstanding input requests while status is input_required. */
  inputRequests?: Record<string, unknown>;
  /** Every input response received so far, by the key the scenario (or the operator) named it; a later answer replaces an earlier one. */
  inputResponses: Record<string, unknown>;
  /** Every key sent in `inputRequests` so far, and whether its response was delivered: a key is never sent twice (tasks.md). */
  issuedKeys?: Record<string, 'asked' | 'answered'>;
  /** The current input step's keys as sent, by the scenario's key (`ok` asked again goes out as `ok_2`). */
  inputKeys?: Record<string, string>;
  result?: unknown;
  error?: StoredError;
  cancelRequestedAt?: number;
  /** tasks/get polls seen since the cancel request (for "ignore for N polls"). */
  pollsSinceCancel: number;
  /** Capabilities declared by the request that created the task. */
  clientCapabilities: Record<string, unknown>;
  /** Free-form per-task data for handlers (e.g. gathered MRTR inputs). */
  data?: Record<string, unknown>;
  /** Incremented on every write; used to detect changes for listeners. */
  revision: number;
}

/** Filter for {@link TaskStore.list}. */
export interface TaskListFilter {
  principal?: string;
  scenarioId?: string;
  /** Only working and input_required tasks. */
  activeOnly?: boolean;
  limit?: number;
}

/** Durable task storage. */
export interface TaskStore {
  /** Insert a new task; throws if the id exists. Durable when it returns. */
  create(record: TaskRecord): Promise<void>;
  /** Read a task by id, whoever owns it (the engine checks the principal). */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Transactional read-modify-write. `mutate` receives a copy of the current record and returns
   * the new record, or undefined to leave it unchanged. Returns the stored record after the call,
   * or undefined when the task does not exist. `revision` is incremented by the store on change.
   * `mutate` is synchronous and pure: a backend may call it more than once when another writer
   * changed the record in between (optimistic concurrency on the revision).
   */
  update(taskId: string, mutate: (current: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined>;
  list(filter?: TaskListFilter): Promise<TaskRecord[]>;
  delete(taskId: string): Promise<boolean>;
  /** Delete tasks whose createdAt + ttlMs is before `now`; returns how many. */
  purgeExpired(now: number): Promise<number>;
  /** Delete every task of a scenario (scenario reset), or all tasks. */
  clear(scenarioId?: string): Promise<number>;
  count(): Promise<number>;
}

/** Outcome of {@link MutationLedger.runOnce}. */
export interface LedgerOutcome<T> {
  /** The receipt of the single execution, identical for every retry. */
  value: T;
  /** True only for the call that actually executed. */
  executed: boolean;
  /** When the execution happened (epoch ms). */
  executedAt: number;
}

/** Durable "run once per idempotency key" ledger for side-effecting tools. */
export interface MutationLedger {
  /**
   * Run `execute` at most once per (scope, key) for the lifetime of the store and return its
   * JSON-serialisable value; later calls return the stored value without executing. A concurrent
   * call for the same key (in this process or another sharing the store) waits for the first
   * to finish and gets its value.
   */
  runOnce<T>(scope: string, key: string, execute: () => T, now: number): Promise<LedgerOutcome<T>>;
  /** Number of executions recorded, optionally for one scope. */
  executions(scope?: string): Promise<number>;
  clear(scope?: string): Promise<number>;
}

/** Result of consuming a one-time nonce. */
export type ReplayVerdict = 'ok' | 'replayed' | 'full';

/** Bounded one-time-nonce store (refuses replays of consumed requestState). */
export interface ReplayStore {
  /**
   * Mark `nonce` used until `expiresAt`. 'replayed' when it was already used, 'full' when the store
   * holds `maxEntries` unexpired entries (expired ones are purged first).
   */
  consume(scope: string, nonce: string, expiresAt: number, now: number): Promise<ReplayVerdict>;
  has(scope: string, nonce: string, now: number): Promise<boolean>;
  /** Unexpired entries. */
  size(now: number): Promise<number>;
  readonly maxEntries: number;
  clear(scope?: string): Promise<number>;
}

/** One fault's place in its sequence: requests it matched so far, and its PRNG's 32-bit state. */
export interface FaultCounter {
  count: number;
  prng: number;
}

/** Fault counters and PRNG states, so `nth: 2` is the second matching request wherever it landed. */
export interface FaultStateStore {
  /**
   * Read the counters of `keys` in `scope` (a missing one starts at count 0 and `initial[i]`),
   * let `step` change them in place, and write them back, as one atomic step: concurrent steps on
   * the same keys (on any instance sharing the store) run one after the other. `step` is
   * synchronous; its return value is returned.
   */
  step<T>(scope: string, keys: readonly string[], initial: readonly number[], step: (counters: FaultCounter[]) => T): Promise<T>;
  clear(scope?: string): Promise<number>;
}

/** A journal entry as one instance wrote it. */
export interface StoredJournalEntry {
  /** Its place in the fleet's journal: one counter in the store, rising in the order entries were appended. */
  seq: number;
  /** Which instance served the exchange. */
  instance: string;
  /** The finished entry, as JSON (the engine's JournalEntry). */
  entry: unknown;
}

/** Finished exchanges of every instance, for a report card that grades the whole fleet's traffic. */
export interface JournalStore {
  /** Append a finished exchange; the oldest of the scope beyond `maxEntries` are dropped. */
  append(scope: string, instance: string, entry: unknown, maxEntries: number): Promise<void>;
  /** The newest `limit` entries of the scope with a seq above `afterSeq` (default 0), in the order they were appended. */
  list(scope: string, limit: number, afterSeq?: number): Promise<StoredJournalEntry[]>;
  clear(scope?: string): Promise<number>;
}

/**
 * Who runs a task's timed steps: a lease (an owner id and an expiry) on the task. The owner
 * renews it while alive; when it dies the lease expires and another instance claims the task.
 */
export interface TaskLeases {
  /** Take the lease until `until` when it is free, expired at `now` or already `owner`'s; true when `owner` holds it. */
  claim(taskId: string, owner: string, until: number, now: number): Promise<boolean>;
  /** Extend every lease `owner` holds on an active task to `until`; returns how many. */
  renew(owner: string, until: number): Promise<number>;
  /** Ids of a scenario's active tasks with no lease or one expired at `now`, oldest first, at most `limit`. */
  orphans(scenarioId: string, now: number, limit: number): Promise<string[]>;
  /** The lease holder, or undefined when free. */
  holder(taskId: string): Promise<{ owner: string; until: number } | undefined>;
  /** Give the lease up (only `owner`'s). */
  release(taskId: string, owner: string): Promise<void>;
}

/** The stores, opened together over one backing file, database or memory. */
export interface Stores {
  tasks: TaskStore;
  ledger: MutationLedger;
  replay: ReplayStore;
  faults: FaultStateStore;
  journal: JournalStore;
  leases: TaskLeases;
  /**
   * True where other processes share the stores (PostgreSQL): the engine then keeps fault
   * counters, the journal and timed-step leases in them. Elsewhere it keeps those in process,
   * off the request's hot path.
   */
  readonly shared?: boolean;
  /**
   * Only where other processes share the stores (PostgreSQL): call `listener` with the id of every
   * task any of them writes, this one included, so listen streams on every instance hear it.
   */
  watchTasks?(listener: (taskId: string) => void): () => void;
  close(): Promise<void>;
}

/** Options common to every store implementation. */
export interface StoreOptions {
  /** ReplayStore bound; default 1000. */
  replayMaxEntries?: number;
  /** Memory only: be a store several engines share, as a fleet shares its database (for tests of fleet behaviour). */
  shared?: boolean;
}
