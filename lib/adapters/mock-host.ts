import fs from 'node:fs';
import path from 'node:path';
import { createMockEngine, type MockEngine } from '../engine';
import { randomToken } from '../engine/runtime';
import { getBuiltinScenario } from '../scenario/builtins';
import type { Scenario } from '../scenario/schema';
import { openSqliteStores } from '../store/sqlite/sqlite-stores';
import type { Stores } from '../store/types';

/**
 * Hosts mock engines for a process: one SQLite file for every scenario's tasks, ledger and
 * replay store under the data directory, a stable requestState secret, and one engine per
 * scenario id created on first use.
 */

export interface MockHostOptions {
  dataDir: string;
  /** Resolve scenarios that are not built in (saved files, a CLI argument). */
  resolve?: (id: string) => Scenario | undefined;
  allowedHosts?: string[];
  /** Overrides applied to every scenario (e.g. --manual). */
  transform?: (s: Scenario) => Scenario;
  stores?: Stores;
}

export interface MockHost {
  engine(id: string): MockEngine | undefined;
  engines(): MockEngine[];
  readonly stores: Stores;
  readonly dataDir: string;
  close(): void;
}

/** Read or create the per-data-directory HMAC secret (mode 0600). */
export function loadSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const secret = randomToken(32);
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return fs.readFileSync(file, 'utf8').trim();
    }
  }
}

export function createMockHost(options: MockHostOptions): MockHost {
  const stores = options.stores ?? openSqliteStores(options.dataDir);
  const secret = loadSecret(options.dataDir);
  const engines = new Map<string, MockEngine>();
  return {
    stores,
    dataDir: options.dataDir,
    engine(id) {
      const existing = engines.get(id);
      if (existing) return existing;
      let scenario = options.resolve?.(id) ?? getBuiltinScenario(id);
      if (!scenario) return undefined;
      if (options.transform) scenario = options.transform(scenario);
      const engine = createMockEngine({ scenario, stores, secret, allowedHosts: options.allowedHosts });
      engines.set(id, engine);
      return engine;
    },
    engines: () => [...engines.values()],
    close() {
      for (const e of engines.values()) e.close();
      engines.clear();
      stores.close();
    },
  };
}
