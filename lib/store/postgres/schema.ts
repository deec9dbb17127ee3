/**
 * Schema of the PostgreSQL stores and its migrations. The version lives in `loupe_schema`
 * (one row); each migration upgrades by exactly one version inside a transaction that first takes
 * an advisory lock, so N instances starting at once against an empty database apply each step
 * exactly once and the rest wait, then find nothing to do.
 */
import type { Pool, PoolClient } from 'pg';

/** Advisory lock keys: the migration, and consumes of nonces (any constants unique to Loupe). */
const MIGRATION_LOCK = 0x10_07_e0_18;
const REPLAY_LOCK = 0x10_07_e0_19;

const MIGRATIONS: readonly string[] = [
  // `json` holds the whole TaskRecord as text (exactly what was written); the other columns
  // duplicate what the stores filter, order and purge on. `seq` breaks createdAt ties in
  // insertion order, as SQLite's rowid does. Times are epoch ms.
  `CREATE TABLE loupe_tasks (
     task_id     TEXT PRIMARY KEY,
     seq         BIGSERIAL NOT NULL,
     principal   TEXT NOT NULL,
     scenario_id TEXT NOT NULL,
     status      TEXT NOT NULL,
     created_at  BIGINT NOT NULL,
     ttl_ms      BIGINT,
     expires_at  BIGINT,
     revision    INTEGER NOT NULL,
     json        TEXT NOT NULL
   );
   CREATE INDEX loupe_tasks_scenario_id ON loupe_tasks (scenario_id);
   CREATE INDEX loupe_tasks_status ON loupe_tasks (status);
   CREATE INDEX loupe_tasks_expires_at ON loupe_tasks (expires_at);
   CREATE INDEX loupe_tasks_principal_created_at ON loupe_tasks (principal, created_at, seq);
   CREATE INDEX loupe_tasks_created_at ON loupe_tasks (created_at, seq);

   -- value_json is NULL for a mutation whose receipt is undefined.
   CREATE TABLE loupe_mutations (
     scope       TEXT NOT NULL,
     key         TEXT NOT NULL,
     value_json  TEXT,
     executed_at BIGINT NOT NULL,
     PRIMARY KEY (scope, key)
   );

   CREATE TABLE loupe_replay (
     scope      TEXT NOT NULL,
     nonce      TEXT NOT NULL,
     expires_at BIGINT NOT NULL,
     PRIMARY KEY (scope, nonce)
   );
   CREATE INDEX loupe_replay_expires_at ON loupe_replay (expires_at);

   -- consume() in one round trip: its statement's transaction holds the advisory lock that
   -- serialises consumes (the bound is a count over the whole table), purges, checks, inserts.
   CREATE FUNCTION loupe_consume_nonce(p_scope TEXT, p_nonce TEXT, p_expires BIGINT, p_now BIGINT, p_max INTEGER)
   RETURNS TEXT LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM pg_advisory_xact_lock(${REPLAY_LOCK});
     DELETE FROM loupe_replay WHERE expires_at <= p_now;
     IF EXISTS (SELECT 1 FROM loupe_replay WHERE scope = p_scope AND nonce = p_nonce) THEN RETURN 'replayed'; END IF;
     IF (SELECT count(*) FROM loupe_replay) >= p_max THEN RETURN 'full'; END IF;
     INSERT INTO loupe_replay (scope, nonce, expires_at) VALUES (p_scope, p_nonce, p_expires) ON CONFLICT DO NOTHING;
     RETURN CASE WHEN FOUND THEN 'ok' ELSE 'replayed' END;
   END $$;`,
  // What else a fleet shares: each fault's match count and PRNG state (so nth and probability
  // count the fleet's requests), the finished exchanges the report card grades, and a lease on
  // each task (who runs its timed steps, until when) that another instance takes when it lapses.
  `CREATE TABLE loupe_fault_counters (
     scope     TEXT NOT NULL,
     fault_key TEXT NOT NULL,
     count     BIGINT NOT NULL,
     prng      BIGINT NOT NULL,
     PRIMARY KEY (scope, fault_key)
   );
   CREATE TABLE loupe_journal (
     seq      BIGSERIAL PRIMARY KEY,
     scope    TEXT NOT NULL,
     instance TEXT NOT NULL,
     json     TEXT NOT NULL
   );
   CREATE INDEX loupe_journal_scope_seq ON loupe_journal (scope, seq);
   ALTER TABLE loupe_tasks ADD COLUMN lease_owner TEXT, ADD COLUMN lease_until BIGINT;
   CREATE INDEX loupe_tasks_lease ON loupe_tasks (scenario_id, status, lease_until);`,
];

/** The schema version this build writes. */
export const PG_SCHEMA_VERSION = MIGRATIONS.length;

/** Run `work` in a transaction on one pooled client; rolls back when it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const value = await work(client);
    await client.query('COMMIT');
    return value;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Bring the schema up to {@link PG_SCHEMA_VERSION}. A database written by a newer Loupe is
 * refused rather than misread.
 */
export async function migratePostgres(pool: Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS loupe_schema (version INTEGER NOT NULL)');
    const found = (await client.query<{ version: number }>('SELECT version FROM loupe_schema')).rows[0]?.version;
    if (found === undefined) await client.query('INSERT INTO loupe_schema (version) VALUES (0)');
    const from = found ?? 0;
    if (from > PG_SCHEMA_VERSION) {
      throw new Error(`Failed to open store: schema version ${from} is newer than this Loupe supports (${PG_SCHEMA_VERSION})`);
    }
    for (let version = from; version < PG_SCHEMA_VERSION; version += 1) {
      await client.query(MIGRATIONS[version]!); // from <= version < PG_SCHEMA_VERSION = MIGRATIONS.length
      await client.query('UPDATE loupe_schema SET version = $1', [version + 1]);
    }
  });
}
