import fs from 'node:fs';
import path from 'node:path';
import { createMockHost } from '../server/mock-host';
import { openMockStores, parseMockStoreKind, type MockStoreKind } from '../server/open-stores';
import { listen } from '../adapters/node-http';
import { serveStdio } from '../adapters/stdio';
import { createMockRouter } from '../server/mock-router';
import { loadScenarioFile } from '../scenario/files';
import { formatIssues } from '../scenario/loader';
import { builtinScenarioIds, getBuiltinScenario } from '../scenario/builtins';
import type { Scenario } from '../scenario/schema';
import { chosenLaunchToken } from './control-token';
import { UsageError } from './errors';
import { checkReportTarget, writeReport } from './mock-report';
import { listenFailure, parsePort, warnBlockedPort } from './network';

/** `mcp-loupe mock [scenario] [--port N] [--host H] [--stdio] [--data-dir D] [--store K] [--manual]`. */

interface MockCommandOptions {
  port: string;
  host: string;
  stdio?: boolean;
  dataDir?: string;
  store?: string;
  seed?: string;
  manual?: boolean;
  allowRemote?: boolean;
  allowedHost?: string[];
  report?: string;
  /** Never taken: present so that a --token gets a usage error naming LOUPE_TOKEN. */
  token?: string;
}

/**
 * Load a scenario by built-in id or file path (then `file` is its absolute path); exits with the
 * validation errors when invalid.
 */
function resolveScenarioArg(arg: string | undefined): { scenario: Scenario; file?: string } {
  const id = arg ?? 'demo';
  const builtin = getBuiltinScenario(id);
  if (builtin) return { scenario: builtin };
  const file = path.resolve(id);
  if (!fs.existsSync(file)) throw new UsageError(`"${id}" is neither a built-in scenario (${builtinScenarioIds().join(', ')}) nor a scenario file`);
  const parsed = loadScenarioFile(file);
  if (!parsed.ok) {
    process.stderr.write(`${formatIssues(parsed.errors)}\n`);
    process.exit(2);
  }
  return { scenario: parsed.scenario, file };
}

/** Make every timed task step wait for an explicit advance. */
function manualSteps(s: Scenario): Scenario {
  return {
    ...s,
    tools: s.tools.map((t) =>
      t.task
        ? { ...t, task: { ...t.task, steps: t.task.steps.map((st) => (st.delayMs !== undefined && !st.inputRequests ? { ...st, manual: true } : st)) } }
        : t,
    ),
  };
}

/** `mcp-loupe mock [scenario]`: serve a scenario over HTTP or stdio until interrupted. */
export async function runMockCommand(scenarioArg: string | undefined, opts: MockCommandOptions): Promise<void> {
  const started = performance.now();
  const port = opts.stdio ? 0 : parsePort(opts.port);
  const { scenario, file } = resolveScenarioArg(scenarioArg);
  // The control token is a secret: a flag would show in `ps` and the shell history.
  if (opts.token !== undefined)
    throw new UsageError(
      'mock takes its control token from LOUPE_TOKEN, not --token (a flag shows in ps and the shell history): LOUPE_TOKEN=… mcp-loupe mock …',
    );
  const host = opts.host;
  if ((host === '0.0.0.0' || host === '::') && !opts.allowRemote)
    throw new UsageError(`Refusing to bind ${host}: that exposes the mock to the network. Pass --allow-remote if you mean it.`);
  if (opts.report !== undefined) checkReportTarget(opts.report);
  const dataDir = path.resolve(opts.dataDir ?? process.env.LOUPE_DATA_DIR ?? '.loupe');
  let store: MockStoreKind;
  try {
    store = opts.store === undefined ? parseMockStoreKind(process.env.LOUPE_STORE, 'LOUPE_STORE') : parseMockStoreKind(opts.store, '--store');
  } catch (error) {
    process.stderr.write(`mcp-loupe: ${(error as Error).message}\n`);
    process.exit(2);
  }
  // A store that cannot open (--store sqlite without a driver, an unwritable data directory)
  // reaches main's handler: one line on stderr, exit code 1.
  const warn = (m: string) => process.stderr.write(`mcp-loupe: ${m}\n`);
  const opened = await openMockStores({ kind: store, dataDir, warn });
  const mockHost = createMockHost({
    dataDir,
    stores: opened.stores,
    storeBackend: opened.backend,
    resolve: (id) => (id === scenario.id ? scenario : undefined),
    // The file served is pinned as `open --scenario` pins one: listed by the control API and
    // `scenarios list` (with its file), its source readable, read-only. A file reusing a built-in's
    // id is served in its place but listed as that built-in.
    pinned: file && !getBuiltinScenario(scenario.id) ? [{ scenario, file }] : undefined,
    transform: opts.manual ? manualSteps : undefined,
    seed: opts.seed,
    allowedHosts: opts.allowedHost,
  });
  if (opts.stdio) {
    const engine = mockHost.engine(scenario.id)!;
    process.stderr.write(`mcp-loupe: serving scenario "${scenario.id}" on stdio\n`);
    // Faults damage HTTP answers and streams; a scenario written for them would pass silently here.
    if (scenario.faults.length)
      process.stderr.write(
        `mcp-loupe: note: the scenario's ${scenario.faults.length === 1 ? 'fault acts' : `${scenario.faults.length} faults act`} on HTTP only; over stdio ${scenario.faults.length === 1 ? 'it is' : 'they are'} not applied (${scenario.faults.map((f) => f.name).join(', ')})\n`,
      );
    await serveStdio(engine);
    await writeReport(opts.report, mockHost, scenario.id);
    mockHost.close();
    return;
  }
  // LOUPE_TOKEN, as `open` takes it: the `tasks` and `scenarios` commands read the same variable.
  const router = createMockRouter(mockHost, scenario.id, { token: chosenLaunchToken() });
  const server = await listen(router.fetch, host, port, (pathname) => router.fastFor(pathname)).catch((e: unknown) => {
    mockHost.close();
    throw listenFailure(e, host, port);
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await writeReport(opts.report, mockHost, scenario.id);
    mockHost.close();
    process.exit(process.exitCode ?? 0);
  };
  // SIGHUP too: a CI runner that closes the terminal still gets its --report. Set before READY
  // is printed: a runner may signal the moment it reads that line.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void stop());
  const shown = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown}:${server.port}/mcp`;
  process.stdout.write(`mcp-loupe mock: scenario "${scenario.id}" at ${url}\n`);
  process.stdout.write(`control token: ${router.token}\n`);
  // In a fleet, the name this instance's exchanges carry in the shared journal and report card.
  if (opened.stores.shared) process.stdout.write(`fleet instance: ${mockHost.engine(scenario.id)?.instance}\n`);
  warnBlockedPort('mock', server.port);
  process.stdout.write(`READY ${url} (${Math.round(performance.now() - started)} ms)\n`);
}
