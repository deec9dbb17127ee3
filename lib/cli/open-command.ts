import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Command } from 'commander';
import { linkQuery, type ConnectionLink } from '../protocol/launch-link';
import { getBuiltinScenario } from '../scenario/builtins';
import { loadScenarioFile } from '../scenario/files';
import { formatIssues } from '../scenario/loader';
import { defaultPagesDir, startAppServer, type AppServer } from '../server/app-server';
import { Ipv6LoopbackTaken } from '../server/loopback-listen';
import { isScenarioId, type PinnedScenario } from '../server/scenario-files';
import { openBrowser } from './browser';
import { chosenLaunchToken } from './control-token';
import { OpenUsageError, planOpen, type OpenFlags, type OpenPlan } from './open-options';

/**
 * `mcp-loupe` with no command, or `mcp-loupe open`: the whole product from the installed package
 * (the inspector, the demo mock, the scenarios and their control rooms, the recording viewer) on
 * one app server (lib/server/app-server.ts) serving the pages exported beside this bundle
 * (dist/app). Prints a one-time sign-in link (`mcp-loupe link` makes more), then opens the browser. `npm start` runs
 * this very command (scripts/serve.mjs, with --no-open), so both print the same lines.
 */

const FIRST_PORT = 3000;
const PORTS_TRIED = 20;

const say = (line: string) => process.stdout.write(`loupe: ${line}\n`);

/** Stop with a message: exit code 2 for a usage mistake, else 1. */
function fail(message: string, code: 1 | 2): never {
  process.stderr.write(`mcp-loupe: ${message}\n`);
  process.exit(code);
}

/** Whether nothing listens on host:port (checked by listening, briefly). */
function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/** The scenario files of `--scenario`, validated; exits with their issues when one is invalid. */
function loadPinned(files: readonly string[]): PinnedScenario[] {
  const pinned: PinnedScenario[] = [];
  for (const given of files) {
    const file = path.resolve(given);
    if (!fs.existsSync(file)) fail(`--scenario ${given}: no such file`, 2);
    const parsed = loadScenarioFile(file);
    if (!parsed.ok) {
      process.stderr.write(`${formatIssues(parsed.errors)}\n`);
      process.exit(2);
    }
    const { id } = parsed.scenario;
    if (!isScenarioId(id)) fail(`${given}: its id "${id}" cannot be a URL path (/mcp/<id>): use lowercase letters, digits and dashes`, 2);
    if (getBuiltinScenario(id)) fail(`${given}: "${id}" is the id of a built-in scenario; give your file another id`, 2);
    const twin = pinned.find((p) => p.scenario.id === id);
    if (twin) fail(`${given} and ${twin.file} both have the id "${id}"`, 2);
    pinned.push({ scenario: parsed.scenario, file });
  }
  return pinned;
}

/** What a failed start means to the person who asked for it: a listen error names the port, anything else (the store, the data directory) says itself. */
function listenMessage(e: unknown, host: string, port: number): string {
  const { code, syscall } = (e as { code?: unknown; syscall?: unknown } | null) ?? {};
  if (syscall !== undefined && syscall !== 'listen') return `cannot start: ${e instanceof Error ? e.message : String(e)}`;
  if (syscall === undefined && code === undefined) return `cannot start: ${e instanceof Error ? e.message : String(e)}`;
  if (e instanceof Ipv6LoopbackTaken) return e.message;
  if (code === 'EADDRINUSE') return `port ${port} is in use on ${host}; pass another --port, or leave it out to take the next free port after ${FIRST_PORT}`;
  if (code === 'EACCES') return `not allowed to listen on port ${port} (ports below 1024 need privileges); pass --port 0 for any free port`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${host}: no interface of this machine has that address`;
  return `cannot listen on ${host}:${port}: ${e instanceof Error ? e.message : String(e)}`;
}

/** Start on the asked port, or on 3000 or the next free port after it; says when 3000 was taken. */
async function listenApp(plan: OpenPlan, start: (port: number) => Promise<AppServer>): Promise<AppServer> {
  if (plan.port !== undefined) return start(plan.port).catch((e: unknown) => fail(listenMessage(e, plan.host, plan.port ?? 0), 1));
  for (let port = FIRST_PORT; port < FIRST_PORT + PORTS_TRIED; port++) {
    if (!(await isPortFree(plan.host, port))) continue;
    try {
      const app = await start(port);
      if (port !== FIRST_PORT) say(`port ${FIRST_PORT} is in use, so Loupe took ${port}`);
      return app;
    } catch (e) {
      if ((e as { code?: unknown } | null)?.code !== 'EADDRINUSE') fail(listenMessage(e, plan.host, port), 1);
    }
  }
  say(`ports ${FIRST_PORT} to ${FIRST_PORT + PORTS_TRIED - 1} are in use, so Loupe took a free one`);
  return start(0).catch((e: unknown) => fail(listenMessage(e, plan.host, 0), 1));
}

/** The origin a browser on this machine uses: loopback for a wildcard bind. */
function browseOrigin(plan: OpenPlan, port: number): string {
  const host = plan.host === '0.0.0.0' || plan.host === '::' || plan.host === '[::]' ? '127.0.0.1' : plan.host;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

/** Run the command until Ctrl-C. */
async function runOpenCommand(command: string[], flags: OpenFlags): Promise<void> {
  let plan: OpenPlan;
  try {
    plan = planOpen(flags, command, process.env);
  } catch (e) {
    if (e instanceof OpenUsageError) fail(e.message, 2);
    throw e;
  }
  const pagesDir = defaultPagesDir();
  if (!fs.existsSync(path.join(pagesDir, 'index.html'))) {
    fail(
      `the inspector's pages are not built (${path.join(pagesDir, 'index.html')} is missing). In a clone of Loupe, run \`npm run build\` ` +
        '(or `npm start`, which builds what is missing); a published mcp-loupe ships them, so reinstall it.',
      1,
    );
  }
  const pinned = loadPinned(plan.scenarioFiles);
  const app = await listenApp(plan, (port) =>
    startAppServer({
      host: plan.host,
      port,
      dataDir: plan.dataDir,
      store: plan.store,
      token: chosenLaunchToken(),
      reusableLink: chosenLaunchToken() !== undefined,
      allowedHosts: plan.allowedHosts,
      pagesDir,
      scenarios: pinned,
      launch: plan.launch,
    }),
  );
  const origin = browseOrigin(plan, app.port);
  const [first] = pinned;
  const link: ConnectionLink | undefined =
    plan.link ?? (first ? { transport: 'direct', url: `/mcp/${first.scenario.id}`, era: 'auto', headerNames: [] } : undefined);
  const url = `${origin}/?token=${app.link()}${link ? `&${linkQuery(link)}` : ''}`;
  process.stdout.write(`Loupe is running: ${url}\n`);
  if (app.advertHeldBy) {
    say(
      `another Loupe (pid ${app.advertHeldBy.pid}, ${app.advertHeldBy.url}) already uses ${plan.dataDir}: \`mcp-loupe link\` and \`tasks\` reach that one, not this one; give this one its own --data-dir to reach it from the CLI`,
    );
  }
  for (const p of pinned) say(`scenario "${p.scenario.id}" (${path.relative(process.cwd(), p.file) || p.file}) at ${origin}/mcp/${p.scenario.id}`);
  if (plan.launch?.transport === 'stdio') say(`the inspector starts ${[plan.launch.command, ...plan.launch.args].join(' ')} over stdio when the page opens`);
  else if (plan.launch) say(`the inspector connects to ${plan.launch.url} through Loupe's proxy when the page opens`);
  if (flags.open !== false) openBrowser(url, say);

  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    void app.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** Collect a repeatable option's values. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The options the README opens with, shown in `mcp-loupe --help` too. */
const HEADLINE_OPTIONS = ['--url', '--header', '--port', '--no-open', '--scenario'];

/**
 * `mcp-loupe --help` listed only the commands: the options of `open`, which a bare `mcp-loupe`
 * runs, appeared under `open --help` alone. The main ones are shown with the program's help, from
 * the open command itself so the two cannot drift apart.
 */
function headlineHelp(open: Command): string {
  const rows: [string, string][] = HEADLINE_OPTIONS.flatMap((long) => {
    const o = open.options.find((option) => option.long === long);
    return o ? [[o.flags, o.description] as [string, string]] : [];
  });
  rows.push(['-- command args', 'inspect a stdio server (Loupe starts it)']);
  const width = Math.max(...rows.map(([term]) => term.length)) + 2;
  return [
    '',
    'Without a command, mcp-loupe runs `open`: the inspector, the mock and the control room in the browser. Its main options:',
    ...rows.map(([term, description]) => `  ${term.padEnd(width)}${description}`),
    'All of them: mcp-loupe open --help',
  ].join('\n');
}

/** Register `open` as the default command: `mcp-loupe [open] [--url URL | -- command args]`. */
export function registerOpenCommand(program: Command): void {
  const open = program
    .command('open', { isDefault: true })
    .description('serve the inspector, the mock, the control room and the recording viewer, and open them in the browser (the default command)')
    .argument('[command...]', 'after --: a stdio MCP server for the inspector to start and connect to (-- node server.js --flag)')
    .option('--port <n>', `port (default ${FIRST_PORT}, or the next free one; 0 = any free port; or $PORT)`)
    .option('--host <h>', 'interface to bind (default 127.0.0.1, or $HOST)')
    .option('--allow-remote', 'allow binding a non-loopback interface')
    .option('--allowed-host <name>', 'a Host name to accept besides loopback (repeatable; or $LOUPE_ALLOWED_HOSTS)', collect)
    .option('--data-dir <d>', 'where tasks, saved scenarios and recordings are kept (default .loupe or $LOUPE_DATA_DIR)')
    .option('--store <kind>', 'memory or sqlite (default: SQLite, else memory with a warning; or $LOUPE_STORE)')
    .option('--no-open', 'do not open a browser (never opened in CI or without a display)')
    .option('--url <url>', "connect the inspector to this MCP server, through Loupe's proxy")
    .option('--header <"Name: value">', 'a header for --url (repeatable); its value never goes into the page URL', collect)
    .option('--era <era>', 'modern, legacy or auto (default: auto-detect)')
    .option('--scenario <file>', 'serve this scenario file at /mcp/<its id> beside the built-ins (repeatable)', collect)
    .action(async (cmd: string[], flags: OpenFlags) => {
      // A stray word is a mistyped command, not a stdio server: a command line to run needs `--`.
      if (cmd.length && !process.argv.includes('--')) fail(`unknown command '${cmd[0]}' (to inspect a stdio server, put its command after --)`, 2);
      await runOpenCommand(cmd, flags);
    });
  program.addHelpText('after', () => headlineHelp(open));
}
