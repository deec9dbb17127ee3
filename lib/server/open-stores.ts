import path from 'node:path';
import { createMemoryStores } from '../store/memory';
import { isPostgresUrl } from '../store/postgres/driver';
import { openPostgresStores } from '../store/postgres/postgres-stores';
import { loadSqliteDriver, type SqliteDriverName } from '../store/sqlite/drivers';
import { openSqliteStores, STORE_FILE_NAME } from '../store/sqlite/sqlite-stores';
import type { StoreOptions, Stores } from '../store/types';
import { expectedStore } from './data-dir-secret';

/**
 * Which stores a process keeps its tasks, idempotency ledger and replay nonces in. SQLite is the
 * durable default, through better-sqlite3 or else Node's built-in node:sqlite; when neither loads,
 * Loupe still starts, in memory, and says once what that costs and how to fix the install, so a
 * user is never stranded by a native build that did not run.
 */

/**
 * `auto` (default): SQLite if any driver loads, else memory with a warning. `sqlite`: SQLite or
 * fail. `memory`: never touch the disk.
 */
export type StoreKind = 'auto' | 'sqlite' | 'memory';

const STORE_KINDS: readonly StoreKind[] = ['auto', 'sqlite', 'memory'];

/** What the stores ended up on. */
export type StoreBackend = SqliteDriverName | 'memory' | 'postgres';

/** `mcp-loupe mock --store`: a {@link StoreKind}, or a PostgreSQL database a fleet of instances shares. */
export type MockStoreKind = StoreKind | { postgres: string };

/** Stores and what backs them. */
export interface OpenedStores {
  stores: Stores;
  backend: StoreBackend;
}

interface OpenStoresOptions {
  /** Default `auto`. */
  kind?: StoreKind;
  /** Where `loupe.sqlite3` lives (created when SQLite is used). */
  dataDir: string;
  /** Told once, in plain words, when `auto` falls back to memory. */
  warn: (message: string) => void;
  options?: StoreOptions;
}

/** How to fix the install: rebuild a package whose binding did not build, install one that is absent. */
function fix(betterSqliteMissing: boolean): string {
  const or = 'or run Loupe on Node 22.13 or later.';
  if (betterSqliteMissing)
    return (
      'Fix: run `npm install better-sqlite3` where mcp-loupe is installed (it is an optional dependency, left out when its ' +
      `native build failed or with --omit=optional; pnpm: \`pnpm add better-sqlite3\`, then \`pnpm approve-builds\`), ${or}`
    );
  return (
    'Fix: run `npm rebuild better-sqlite3` where mcp-loupe is installed (pnpm: `pnpm approve-builds`, then ' +
    `\`pnpm rebuild better-sqlite3\`) so it builds its native binding, ${or}`
  );
}

/** Parse `--store` or `LOUPE_STORE`; unset or empty means `auto`. Throws naming `source` when unknown. */
export function parseStoreKind(value: string | undefined, source: string): StoreKind {
  if (value === undefined || value === '') return 'auto';
  const kind = STORE_KINDS.find((k) => k === value);
  if (kind === undefined) throw new Error(`${source} must be memory or sqlite (or auto, the default), got "${value}"`);
  return kind;
}

/** Parse the mock's `--store` or `LOUPE_STORE`: a `postgres://` (or `postgresql://`) URL, or what {@link parseStoreKind} takes. */
export function parseMockStoreKind(value: string | undefined, source: string): MockStoreKind {
  if (value !== undefined && isPostgresUrl(value)) return { postgres: value };
  try {
    return parseStoreKind(value, source);
  } catch {
    throw new Error(`${source} must be memory, sqlite or a postgres:// URL (or auto, the default), got "${value}"`);
  }
}

/** Open the mock's stores: PostgreSQL (connects and migrates, so async), or as {@link openStores}. */
export async function openMockStores({ kind = 'auto', ...rest }: Omit<OpenStoresOptions, 'kind'> & { kind?: MockStoreKind }): Promise<OpenedStores> {
  if (typeof kind === 'object') return { stores: await openPostgresStores(kind.postgres, rest.options), backend: 'postgres' };
  return openStores({ kind, ...rest });
}

/**
 * Open the stores of a process. `sqlite` and `auto` try better-sqlite3, then node:sqlite; an
 * error opening the file itself (permissions, a newer schema) is thrown, never papered over, and
 * so is a store missing or truncated where the data directory's secret says one was: every
 * command that opens a data directory (`open`, `npm start`, `mock`) comes through here, so none
 * can start silently empty.
 */
export function openStores({ kind = 'auto', dataDir, warn, options }: OpenStoresOptions): OpenedStores {
  if (kind === 'memory') return { stores: createMemoryStores(options), backend: 'memory' };
  const expected = expectedStore(dataDir);
  const reasons: string[] = [];
  let missing = false;
  for (const name of ['better-sqlite3', 'node:sqlite'] as const) {
    const loaded = loadSqliteDriver(name);
    if (loaded.ok) return { stores: openSqliteStores(dataDir, { ...options, driver: loaded.driver, expected }), backend: name };
    reasons.push(loaded.reason);
    if (name === 'better-sqlite3') missing = loaded.missing === true;
  }
  const why = `${reasons.join('; ')}.`;
  const howToFix = fix(missing);
  if (kind === 'sqlite') {
    const file = path.join(dataDir, STORE_FILE_NAME);
    throw new Error(`Failed to open the SQLite store at ${file}: ${why}\n  ${howToFix}\n  Or pass --store memory (LOUPE_STORE=memory) to run without it.`);
  }
  warn(
    [
      'SQLite is unavailable, so tasks, idempotency receipts and replay nonces are kept in memory and will not survive a restart.',
      `  ${why}`,
      `  ${howToFix}`,
      '  Pass --store memory (LOUPE_STORE=memory) to choose memory and silence this warning.',
    ].join('\n'),
  );
  return { stores: createMemoryStores(options), backend: 'memory' };
}
