import fs from 'node:fs';
import path from 'node:path';
import { createMockEngine, type EngineEvent, type MockEngine } from '../engine';
import { randomToken } from '../engine/runtime';
import { getBuiltinScenario } from '../scenario/builtins';
import type { Scenario } from '../scenario/schema';
import type { Stores } from '../store/types';
import { makeDataDir } from '../store/sqlite/make-dir';
import { STORE_FILE_NAME } from '../store/sqlite/sqlite-stores';
import { openStores, type StoreBackend, type StoreKind } from './open-stores';
import { createScenarioFiles, isScenarioId, type PinnedScenario, type SaveOutcome, type ScenarioFiles } from './scenario-files';

/**
 * Hosts mock engines for a process: one SQLite file for every scenario's tasks, ledger and
 * replay store under the data directory (or memory, see open-stores.ts), a stable requestState
 * secret, and one engine per scenario id created on first use. Scenarios resolve as the pinned
 * files of the command line, built-ins, then saved files (`<dataDir>/scenarios/<id>.yaml`);
 * saving one replaces its running engine.
 */

/** An engine event tagged with its scenario, or a host event (`scenario:replaced`, `scenario:deleted`). */
export type HostEvent = EngineEvent & { scenarioId: string };

interface MockHostOptions {
  dataDir: string;
  /** Resolve scenarios that are not built in (saved files, a CLI argument). */
  resolve?: (id: string) => Scenario | undefined;
  /** Scenario files given on the command line: served, listed and read-only (see scenario-files.ts). */
  pinned?: readonly PinnedScenario[];
  allowedHosts?: string[];
  /** Seed for every engine's faults (`--seed`), overriding the scenarios' own. */
  seed?: number | string;
  /** Overrides applied to every scenario (e.g. --manual). */
  transform?: (s: Scenario) => Scenario;
  /** Open stores to use instead of opening them by `store`. */
  stores?: Stores;
  /** What `stores` are kept in (default `external`); memory keeps the secret in memory too. */
  storeBackend?: StoreBackend;
  /** `--store`: default `auto` (SQLite, else memory with a warning). */
  store?: StoreKind;
  /** HS256 key of the bearer JWTs whose `sub` names the caller (default: `LOUPE_JWT_KEY`; none: a token is its own principal). */
  principalKey?: string;
  /** Where the one-time fallback warning goes (default: stderr). */
  warn?: (message: string) => void;
}

/** The engines of a process, their stores and scenario files, and one event feed for all. */
export interface MockHost {
  engine(id: string): MockEngine | undefined;
  engines(): MockEngine[];
  readonly stores: Stores;
  /** What the stores are kept in; `external` when the caller passed its own. */
  readonly storeBackend: StoreBackend | 'external';
  readonly dataDir: string;
  readonly scenarios: ScenarioFiles;
  /** Validate and save a scenario file; on success the running engine is replaced (tasks stay stored). */
  saveScenario(id: string, text: string): SaveOutcome;
  /** Delete a saved scenario and stop its engine. */
  deleteScenario(id: string): ReturnType<ScenarioFiles['remove']>;
  /** Events of every engine of this host, tagged with the scenario id. */
  on(listener: (event: HostEvent) => void): () => void;
  close(): void;
}

/** The secret's file in a data directory. */
const secretFile = (dataDir: string) => path.join(dataDir, 'secret');
/** randomToken(32) is 43 characters; anything much shorter was cut off by a failed write. */
const MIN_SECRET_CHARS = 32;

/** The data directory's secret, or undefined when it is missing, empty or cut short. */
function readSecret(dataDir: string): string | undefined {
  try {
    const secret = fs.readFileSync(secretFile(dataDir), 'utf8').trim();
    return secret.length >= MIN_SECRET_CHARS ? secret : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Read or create the per-data-directory HMAC secret (mode 0600). A new one is written to a
 * temporary file, synced, then linked into place, so a full disk leaves no secret rather than an
 * empty one, and of two processes starting at once the second reads the first's. A secret cut
 * short is replaced: it signs only short-lived requestState, so nothing durable is lost.
 */
function loadSecret(dataDir: string): string {
  const existing = readSecret(dataDir);
  if (existing) return existing;
  const file = secretFile(dataDir);
  makeDataDir(dataDir);
  const secret = randomToken(32);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeFileSync(fd, secret);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // Another process won the race, or a broken secret is in the way: use or replace it.
      const theirs = readSecret(dataDir);
      if (theirs) return theirs;
      fs.renameSync(tmp, file);
    }
    return secret;
  } catch (e) {
    throw new Error(`Failed to write ${file}: ${(e as Error).message}`, { cause: e });
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Create the mock host of a data directory. */
export function createMockHost(options: MockHostOptions): MockHost {
  const opened = options.stores
    ? { stores: options.stores, backend: options.storeBackend ?? ('external' as const) }
    : openStores({
        kind: options.store,
        dataDir: options.dataDir,
        warn: options.warn ?? ((m) => process.stderr.write(`mcp-loupe: ${m}\n`)),
        // The secret is written right after the first store: with it present, a store must be there too.
        expected: readSecret(options.dataDir)
          ? {
              because: `${secretFile(options.dataDir)} exists, so this data directory held a store before`,
              startOver: `move both ${path.join(options.dataDir, STORE_FILE_NAME)} and ${secretFile(options.dataDir)} aside (your scenarios and recordings stay)`,
            }
          : undefined,
      });
  const { stores } = opened;
  // With memory stores nothing outlives the process, so neither does the secret: memory never writes the data directory.
  const secret = opened.backend === 'memory' ? randomToken(32) : loadSecret(options.dataDir);
  const principalKey = options.principalKey ?? (process.env.LOUPE_JWT_KEY || undefined);
  const scenarios = createScenarioFiles(options.dataDir, options.pinned);
  const pinned = new Map(options.pinned?.map((p) => [p.scenario.id, p.scenario]));
  const engines = new Map<string, { engine: MockEngine; off: () => void }>();
  const listeners = new Set<(e: HostEvent) => void>();
  const emit = (event: HostEvent) => {
    for (const l of listeners) l(event);
  };

  function resolve(id: string): Scenario | undefined {
    return options.resolve?.(id) ?? pinned.get(id) ?? getBuiltinScenario(id) ?? (isScenarioId(id) ? scenarios.load(id) : undefined);
  }

  /** Stop the engine of `id` so the next request loads the scenario again. */
  function retire(id: string): boolean {
    const running = engines.get(id);
    if (!running) return false;
    engines.delete(id);
    running.off();
    running.engine.close();
    return true;
  }

  return {
    stores,
    storeBackend: opened.backend,
    dataDir: options.dataDir,
    scenarios,
    engine(id) {
      const existing = engines.get(id);
      if (existing) return existing.engine;
      let scenario = resolve(id);
      if (!scenario) return undefined;
      if (options.transform) scenario = options.transform(scenario);
      const engine = createMockEngine({ scenario, stores, secret, allowedHosts: options.allowedHosts, seed: options.seed, principalKey });
      // Two journal events per request: copied only when someone listens (the control room's streams).
      const off = engine.on((event) => listeners.size > 0 && emit({ ...event, scenarioId: id }));
      engines.set(id, { engine, off });
      return engine;
    },
    engines: () => [...engines.values()].map((e) => e.engine),
    saveScenario(id, text) {
      const saved = scenarios.save(id, text);
      if (saved.ok) {
        retire(id);
        emit({ type: 'scenario:replaced', data: { id }, scenarioId: id });
      }
      return saved;
    },
    deleteScenario(id) {
      const removed = scenarios.remove(id);
      if (removed.ok) {
        retire(id);
        emit({ type: 'scenario:deleted', data: { id }, scenarioId: id });
      }
      return removed;
    },
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      for (const id of [...engines.keys()]) retire(id);
      listeners.clear();
      void stores.close();
    },
  };
}
