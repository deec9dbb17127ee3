/**
 * Stores in a PostgreSQL database, shared by every mock instance pointed at it (`mcp-loupe mock
 * --store postgres://…`). Node only, and `pg` is loaded on first use (`driver.ts`). The schema is
 * created or migrated on open (`schema.ts`); concurrency is the database's: conditional writes on
 * a task's revision, `INSERT … ON CONFLICT` for the ledger and nonces.
 */
import type { Pool, PoolClient } from 'pg';
import { resolveStoreOptions } from '../store-helpers';
import type { StoreOptions, Stores } from '../types';
import { loadPg, redactPostgresUrl } from './driver';
import { createPgFaultStates, createPgJournalStore, createPgLeases } from './pg-fleet';
import { createPgLedger } from './pg-ledger';
import { createPgReplayStore } from './pg-replay-store';
import { createPgTaskStore, TASK_CHANNEL } from './pg-task-store';
import { migratePostgres } from './schema';

/** Connections per instance; a runOnce holds one for its transaction. */
const POOL_SIZE = 10;

/** Stores with the cross-instance change feed (LISTEN/NOTIFY) only a shared database can give. */
type PostgresStores = Stores & Required<Pick<Stores, 'watchTasks'>>;

/** Open the stores of a PostgreSQL database, creating or migrating the schema. */
export async function openPostgresStores(url: string, options?: StoreOptions): Promise<PostgresStores> {
  const { replayMaxEntries } = resolveStoreOptions(options);
  const loaded = loadPg();
  if (!loaded.ok) throw new Error(`Failed to open the PostgreSQL store at ${redactPostgresUrl(url)}: ${loaded.reason}`);
  const pool: Pool = new loaded.Pool({ connectionString: url, max: POOL_SIZE });
  // An idle client that loses its server (a restart) must not crash the process: the next query fails and says so.
  pool.on('error', () => {});
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(`Failed to open the PostgreSQL store at ${redactPostgresUrl(url)}: ${(error as Error).message}`, { cause: error });
  }
  let closed = false;
  const guard = (action: string) => {
    if (closed) throw new Error(`Failed to ${action}: store is closed`);
  };

  const watchers = new Set<(taskId: string) => void>();
  let listening: Promise<PoolClient> | undefined;
  const startListening = (): Promise<PoolClient> => {
    listening ??= pool.connect().then(async (client) => {
      client.on('notification', (message) => {
        if (message.channel !== TASK_CHANNEL || message.payload === undefined) return;
        for (const watcher of watchers) watcher(message.payload);
      });
      client.on('error', () => {});
      await client.query(`LISTEN ${TASK_CHANNEL}`);
      return client;
    });
    return listening;
  };

  return {
    tasks: createPgTaskStore(pool, guard),
    ledger: createPgLedger(pool, guard),
    replay: createPgReplayStore(pool, replayMaxEntries, guard),
    faults: createPgFaultStates(pool, guard),
    journal: createPgJournalStore(pool, guard),
    leases: createPgLeases(pool, guard),
    shared: true,
    watchTasks(listener) {
      watchers.add(listener);
      void startListening().catch(() => {});
      return () => watchers.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      watchers.clear();
      if (listening) await listening.then((client) => client.release()).catch(() => {});
      await pool.end();
    },
  };
}
