/**
 * The `pg` client, loaded on first use like better-sqlite3 (`../sqlite/drivers.ts`): it is an
 * optional dependency, so a process that never opens a PostgreSQL store never needs it, and one
 * that does gets a sentence saying how to install it instead of a crash at start-up.
 */
import { createRequire } from 'node:module';
import type { Pool, PoolConfig } from 'pg';

/** The pg module's one export the stores use. */
type PoolConstructor = new (config: PoolConfig) => Pool;

/** The pool class, or why it cannot be had (one line, for a message to the user). */
type PgLoad = { ok: true; Pool: PoolConstructor } | { ok: false; reason: string };

/** Load `pg`; `missing` wording when the package is not installed at all. */
export function loadPg(): PgLoad {
  try {
    const pg = createRequire(import.meta.url)('pg') as { Pool?: PoolConstructor; default?: { Pool?: PoolConstructor } };
    const PoolClass = pg.Pool ?? pg.default?.Pool;
    if (typeof PoolClass !== 'function') return { ok: false, reason: 'the pg package loaded but has no Pool export' };
    return { ok: true, Pool: PoolClass };
  } catch (error) {
    const message = ((error as Error | null)?.message ?? String(error)).split('\n')[0] ?? '';
    if ((error as NodeJS.ErrnoException | null)?.code === 'MODULE_NOT_FOUND' && /'pg'/.test(message)) {
      return {
        ok: false,
        reason:
          'the pg package is not installed. Fix: run `npm install pg` where mcp-loupe is installed (it is an optional dependency, left out with --omit=optional)',
      };
    }
    return { ok: false, reason: `pg did not load (${message})` };
  }
}

/** Whether a store argument names a PostgreSQL database. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL with its password masked, for messages. */
export function redactPostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}
