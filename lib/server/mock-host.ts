import { createMockEngine, type EngineEvent, type MockEngine } from '../engine';
import { randomToken } from '../engine/runtime';
import { getBuiltinScenario } from '../scenario/builtins';
import type { Scenario } from '../scenario/schema';
import type { Stores } from '../store/types';
import { loadSecret } from './data-dir-secret';
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

/** Create the mock host of a data directory. */
export function createMockHost(options: MockHostOptions): MockHost {
  const opened = options.stores
    ? { stores: options.stores, backend: options.storeBackend ?? ('external' as const) }
    : openStores({
        kind: options.store,
        dataDir: options.dataDir,
        warn: options.warn ?? ((m) => process.stderr.write(`mcp-loupe: ${m}\n`)),
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
