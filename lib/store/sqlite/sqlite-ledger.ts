/**
 * MutationLedger over the `mutations` table. The check, the execution and the insert happen in
 * one immediate transaction: the write lock is taken before looking, so two callers, in this
 * process or another one sharing the file, can never both find the key absent and both execute.
 */
import type { SqliteDatabase } from './connection';
import { decodeLedgerValue, executeForLedger } from '../store-helpers';
import type { LedgerOutcome, MutationLedger } from '../types';

interface MutationRow {
  value_json: string | null;
  executed_at: number;
}

/** Create the SQLite MutationLedger over an open, migrated connection. */
export function createSqliteLedger(db: SqliteDatabase): MutationLedger {
  const selectMutation = db.prepare<[string, string], MutationRow>('SELECT value_json, executed_at FROM mutations WHERE scope = ? AND key = ?');
  const insertMutation = db.prepare<[string, string, string | null, number]>('INSERT INTO mutations (scope, key, value_json, executed_at) VALUES (?, ?, ?, ?)');
  const countAll = db.prepare<[], number>('SELECT COUNT(*) FROM mutations').pluck();
  const countScope = db.prepare<[string], number>('SELECT COUNT(*) FROM mutations WHERE scope = ?').pluck();
  const deleteAll = db.prepare<[]>('DELETE FROM mutations');
  const deleteScope = db.prepare<[string]>('DELETE FROM mutations WHERE scope = ?');

  // A key whose execute() is still running in this process; a re-entrant runOnce for it would
  // otherwise execute again inside a savepoint and only fail afterwards on the primary key.
  const running = new Set<string>();

  const runOnceTransaction = db.transaction((scope: string, key: string, execute: () => unknown, now: number): LedgerOutcome<unknown> => {
    const existing = selectMutation.get(scope, key);
    if (existing !== undefined) {
      return { value: decodeLedgerValue(existing.value_json), executed: false, executedAt: existing.executed_at };
    }
    const id = JSON.stringify([scope, key]);
    if (running.has(id)) throw new Error(`Failed to run mutation ${key}: re-entrant call for the same key`);
    running.add(id);
    let valueJson: string | null;
    try {
      // If execute throws, the transaction rolls back and nothing is recorded: a retry may run.
      valueJson = executeForLedger(key, execute);
    } finally {
      running.delete(id);
    }
    insertMutation.run(scope, key, valueJson, now);
    return { value: decodeLedgerValue(valueJson), executed: true, executedAt: now };
  });

  return {
    async runOnce<T>(scope: string, key: string, execute: () => T, now: number): Promise<LedgerOutcome<T>> {
      return runOnceTransaction.immediate(scope, key, execute, now) as LedgerOutcome<T>;
    },
    async executions(scope) {
      return (scope === undefined ? countAll.get() : countScope.get(scope)) as number;
    },
    async clear(scope) {
      return (scope === undefined ? deleteAll.run() : deleteScope.run(scope)).changes;
    },
  };
}
