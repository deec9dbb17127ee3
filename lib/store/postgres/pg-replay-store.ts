/**
 * ReplayStore over `loupe_replay`. consume() is one call of `loupe_consume_nonce` (schema.ts),
 * which takes an advisory lock for its transaction, purges, counts and inserts, so the bound holds
 * across every instance sharing the database; the insert itself is `ON CONFLICT DO NOTHING`, so a
 * nonce is accepted once whatever happens.
 */
import type { Pool } from 'pg';
import type { ReplayStore, ReplayVerdict } from '../types';

const VERDICTS: ReadonlySet<string> = new Set<ReplayVerdict>(['ok', 'replayed', 'full']);

/** Create the PostgreSQL ReplayStore over a migrated database. */
export function createPgReplayStore(pool: Pool, maxEntries: number, guard: (action: string) => void): ReplayStore {
  return {
    maxEntries,
    async consume(scope, nonce, expiresAt, now) {
      guard('consume nonce');
      const row = (await pool.query<{ v: string }>('SELECT loupe_consume_nonce($1, $2, $3, $4, $5) AS v', [scope, nonce, expiresAt, now, maxEntries])).rows[0];
      if (row === undefined || !VERDICTS.has(row.v)) throw new Error(`Failed to consume nonce: the database answered ${JSON.stringify(row?.v)}`);
      return row.v as ReplayVerdict;
    },
    async has(scope, nonce, now) {
      guard('look up nonce');
      const row = await pool.query('SELECT 1 FROM loupe_replay WHERE scope = $1 AND nonce = $2 AND expires_at > $3', [scope, nonce, now]);
      return (row.rowCount ?? 0) > 0;
    },
    async size(now) {
      guard('count nonces');
      return (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM loupe_replay WHERE expires_at > $1', [now])).rows[0]?.n ?? 0;
    },
    async clear(scope) {
      guard('clear nonces');
      const result =
        scope === undefined ? await pool.query('DELETE FROM loupe_replay') : await pool.query('DELETE FROM loupe_replay WHERE scope = $1', [scope]);
      return result.rowCount ?? 0;
    },
  };
}
