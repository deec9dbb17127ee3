/**
 * Connection settings and schema migrations of the SQLite store. The schema version lives in
 * `PRAGMA user_version`; each migration upgrades by exactly one version, so a file written by any
 * older Loupe can be brought forward by running the missing steps in order.
 */
import type { SqliteDatabase } from './connection';

/** Milliseconds a connection waits for another connection's write lock before failing. */
const BUSY_TIMEOUT_MS = 5000;

/** One step of the schema; index i upgrades user_version i to i + 1. */
type Migration = (db: SqliteDatabase) => void;

const MIGRATIONS: readonly Migration[] = [
  (db) => {
    // `json` holds the whole TaskRecord; the other columns duplicate the fields the store filters
    // and purges on so those queries never parse JSON. expires_at = created_at + ttl_ms (NULL: never).
    db.exec(`
      CREATE TABLE tasks (
        task_id     TEXT PRIMARY KEY NOT NULL,
        principal   TEXT NOT NULL,
        scenario_id TEXT NOT NULL,
        status      TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        ttl_ms      INTEGER,
        expires_at  INTEGER,
        revision    INTEGER NOT NULL,
        json        TEXT NOT NULL
      );
      CREATE INDEX tasks_scenario_id ON tasks (scenario_id);
      CREATE INDEX tasks_status ON tasks (status);
      CREATE INDEX tasks_expires_at ON tasks (expires_at);
      -- tasks/list is always scoped to the caller's principal and ordered by creation.
      CREATE INDEX tasks_principal_created_at ON tasks (principal, created_at);

      -- value_json is NULL for a mutation whose receipt is undefined.
      CREATE TABLE mutations (
        scope       TEXT NOT NULL,
        key         TEXT NOT NULL,
        value_json  TEXT,
        executed_at INTEGER NOT NULL,
        PRIMARY KEY (scope, key)
      );

      CREATE TABLE replay (
        scope      TEXT NOT NULL,
        nonce      TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (scope, nonce)
      );
      CREATE INDEX replay_expires_at ON replay (expires_at);
    `);
  },
  (db) => {
    // What a fleet shares in PostgreSQL, kept here too so every backend behaves alike: fault
    // counters with their PRNG state, finished journal entries, and who runs a task's timed steps.
    db.exec(`
      CREATE TABLE fault_counters (
        scope     TEXT NOT NULL,
        fault_key TEXT NOT NULL,
        count     INTEGER NOT NULL,
        prng      INTEGER NOT NULL,
        PRIMARY KEY (scope, fault_key)
      );
      CREATE TABLE journal (
        seq      INTEGER PRIMARY KEY AUTOINCREMENT,
        scope    TEXT NOT NULL,
        instance TEXT NOT NULL,
        json     TEXT NOT NULL
      );
      CREATE INDEX journal_scope_seq ON journal (scope, seq);
      ALTER TABLE tasks ADD COLUMN lease_owner TEXT;
      ALTER TABLE tasks ADD COLUMN lease_until INTEGER;
    `);
  },
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Read `PRAGMA user_version`. */
function readSchemaVersion(db: SqliteDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Per-connection settings. WAL lets readers proceed while one writer commits and makes each
 * commit a single append to the log. With WAL, `synchronous = NORMAL` fsyncs only at checkpoints,
 * not on every commit: a committed transaction is already in the WAL file (the OS page cache), so
 * it survives the process being killed, SIGKILL included; only an OS crash or power loss can lose
 * the last few commits, and even then the database stays consistent. That is the durability a
 * mock server needs, at a fraction of FULL's cost per write.
 */
export function configureConnection(db: SqliteDatabase): void {
  // Set first so the journal_mode switch below also waits for a concurrent opener.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new Error(`Failed to open store: journal_mode is ${String(mode)}, WAL is required`);
  db.pragma('synchronous = NORMAL');
}

/**
 * Bring the schema up to {@link SCHEMA_VERSION}. Each step runs in its own immediate transaction
 * and re-reads the version inside it, so two processes opening a new file at once apply each
 * step exactly once. A file from a newer Loupe is refused rather than misread.
 */
export function migrateSchema(db: SqliteDatabase): void {
  const found = readSchemaVersion(db);
  if (found > SCHEMA_VERSION) {
    throw new Error(`Failed to open store: schema version ${found} is newer than this Loupe supports (${SCHEMA_VERSION})`);
  }
  for (let version = found; version < SCHEMA_VERSION; version += 1) {
    const step = db.transaction(() => {
      if (readSchemaVersion(db) !== version) return;
      MIGRATIONS[version]!(db); // found <= version < SCHEMA_VERSION = MIGRATIONS.length
      // user_version is part of the database header, so it commits or rolls back with the step.
      db.pragma(`user_version = ${version + 1}`);
    });
    step.immediate();
  }
}
