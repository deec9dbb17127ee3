/**
 * ReplayStore over the `replay` table. consume() purges, looks up, counts and inserts in one
 * immediate transaction, so the bound holds and a nonce is accepted once even when several
 * processes share the file.
 */
import type { SqliteDatabase } from './connection';
import type { ReplayStore, ReplayVerdict } from '../types';

/** Create the SQLite ReplayStore over an open, migrated connection. */
export function createSqliteReplayStore(db: SqliteDatabase, maxEntries: number): ReplayStore {
  const purgeExpired = db.prepare<[number]>('DELETE FROM replay WHERE expires_at <= ?');
  const selectEntry = db.prepare<[string, string], number>('SELECT expires_at FROM replay WHERE scope = ? AND nonce = ?').pluck();
  const countAll = db.prepare<[], number>('SELECT COUNT(*) FROM replay').pluck();
  const countUnexpired = db.prepare<[number], number>('SELECT COUNT(*) FROM replay WHERE expires_at > ?').pluck();
  const insertEntry = db.prepare<[string, string, number]>('INSERT INTO replay (scope, nonce, expires_at) VALUES (?, ?, ?)');
  const deleteAll = db.prepare<[]>('DELETE FROM replay');
  const deleteScope = db.prepare<[string]>('DELETE FROM replay WHERE scope = ?');

  const consumeTransaction = db.transaction((scope: string, nonce: string, expiresAt: number, now: number): ReplayVerdict => {
    // Purging first keeps the table bounded by maxEntries unexpired rows at all times.
    purgeExpired.run(now);
    if (selectEntry.get(scope, nonce) !== undefined) return 'replayed';
    if ((countAll.get() as number) >= maxEntries) return 'full';
    insertEntry.run(scope, nonce, expiresAt);
    return 'ok';
  });

  return {
    maxEntries,
    async consume(scope, nonce, expiresAt, now) {
      return consumeTransaction.immediate(scope, nonce, expiresAt, now);
    },
    async has(scope, nonce, now) {
      const entryExpiresAt = selectEntry.get(scope, nonce);
      return entryExpiresAt !== undefined && entryExpiresAt > now;
    },
    async size(now) {
      return countUnexpired.get(now) as number;
    },
    async clear(scope) {
      return (scope === undefined ? deleteAll.run() : deleteScope.run(scope)).changes;
    },
  };
}
