/**
 * MutationLedger over `loupe_mutations`. runOnce claims the key with `INSERT … ON CONFLICT DO
 * NOTHING` inside a transaction, executes only when its insert won, writes the receipt and
 * commits. A concurrent call for the same key, on any instance, blocks on the uncommitted row
 * until the winner commits (then reads its receipt) or rolls back (then its own insert wins):
 * exactly one execution per key, by the database, however many instances share it.
 */
import type { Pool } from 'pg';
import { decodeLedgerValue, executeForLedger } from '../store-helpers';
import type { LedgerOutcome, MutationLedger } from '../types';
import { inTransaction } from './schema';

interface MutationRow {
  value_json: string | null;
  executed_at: number;
}

/** Create the PostgreSQL MutationLedger over a migrated database. */
export function createPgLedger(pool: Pool, guard: (action: string) => void): MutationLedger {
  return {
    async runOnce<T>(scope: string, key: string, execute: () => T, now: number): Promise<LedgerOutcome<T>> {
      guard('run mutation');
      return inTransaction(pool, async (client) => {
        const claimed = await client.query(
          'INSERT INTO loupe_mutations (scope, key, value_json, executed_at) VALUES ($1, $2, NULL, $3) ON CONFLICT (scope, key) DO NOTHING',
          [scope, key, now],
        );
        if (claimed.rowCount === 0) {
          const row = (
            await client.query<MutationRow>('SELECT value_json, executed_at::float8 AS executed_at FROM loupe_mutations WHERE scope = $1 AND key = $2', [
              scope,
              key,
            ])
          ).rows[0];
          if (row === undefined) throw new Error(`Failed to run mutation ${key}: its row vanished (cleared while running)`);
          return { value: decodeLedgerValue(row.value_json) as T, executed: false, executedAt: row.executed_at };
        }
        // If execute throws, the transaction rolls back with the claim: nothing is recorded and a retry may run.
        const valueJson = executeForLedger(key, execute);
        await client.query('UPDATE loupe_mutations SET value_json = $3 WHERE scope = $1 AND key = $2', [scope, key, valueJson]);
        return { value: decodeLedgerValue(valueJson) as T, executed: true, executedAt: now };
      });
    },
    async executions(scope) {
      guard('count mutations');
      const result =
        scope === undefined
          ? await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM loupe_mutations')
          : await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM loupe_mutations WHERE scope = $1', [scope]);
      return result.rows[0]?.n ?? 0;
    },
    async clear(scope) {
      guard('clear mutations');
      const result =
        scope === undefined ? await pool.query('DELETE FROM loupe_mutations') : await pool.query('DELETE FROM loupe_mutations WHERE scope = $1', [scope]);
      return result.rowCount ?? 0;
    },
  };
}
