import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { describeConnection } from '../recording/connection';
import { parseFaultsFile, type TapFaultEntry } from '../scenario/tap-faults';
import { startAppServer } from '../server/app-server';
import { makeDataDir } from '../store/sqlite/make-dir';
import { createTapFaults, type TapFaults } from '../server/tap-faults';
import { findLoupe } from '../server/tap-discovery';
import { requestSignInLink } from './link-command';
import { startLiveFeed } from '../server/tap-live';
import { createTapSession, type TapSession } from '../server/tap-recorder';
import { startHttpTap } from '../server/tap-http';
import { runStdioTap } from '../server/tap-stdio';
import { openBrowser } from './browser';
import { checkRecordTarget } from './record-file';
import { UsageError } from './errors';
import { keepRunningWhenStdoutCloses } from './closed-pipe';
import { listenFailure, parseHttpUrl, parsePort, warnBlockedPort } from './network';

/**
 * `mcp-loupe tap`: sit between a real client and a real server and change nothing.
 * `--upstream URL` serves a loopback endpoint relaying to an HTTP server; `-- cmd args` runs a
 * stdio server behind the tap. `--record` and `--report` write the session when the tap ends.
 * Over stdio the tap's own words go to stderr only (stdout belongs to the protocol), and only
 * with --verbose or on error.
 */

interface TapOptions {
  upstream?: string;
  port: string;
  host: string;
  allowRemote?: boolean;
  allowedHost?: string[];
  record?: string;
  report?: string;
  redact: boolean;
  verbose?: boolean;
  dataDir?: string;
  faults?: string;
  seed?: string;
  live: boolean;
  open?: boolean;
}

/** `--faults FILE`: the faults to start with (switched on), or a usage error naming the field. */
function loadFaults(file: string | undefined): { entries: TapFaultEntry[]; seed?: number | string } {
  if (!file) return { entries: [] };
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read --faults ${file}: ${(e as Error).message}`);
  }
  const parsed = parseFaultsFile(text);
  if (!parsed.ok) throw new UsageError(`--faults ${file}: ${parsed.error}`);
  return { entries: parsed.entries, ...(parsed.seed !== undefined ? { seed: parsed.seed } : {}) };
}

/**
 * The live view: feed the session to the Loupe running on the data directory (or, with --open,
 * to one this process starts when none runs, and open the tap's page).
 */
async function goLive(
  opts: TapOptions,
  session: TapSession,
  faults: TapFaults,
  target: string,
  transport: 'http' | 'stdio',
  seed: number | string | undefined,
  log: (line: string) => void,
) {
  if (!opts.live) return undefined;
  const dataDir = path.resolve(opts.dataDir ?? process.env.LOUPE_DATA_DIR ?? '.loupe');
  let started: Awaited<ReturnType<typeof startAppServer>> | undefined;
  if (opts.open && !findLoupe(dataDir)) {
    makeDataDir(dataDir);
    started = await startAppServer({ port: 0, dataDir, store: 'memory' });
    process.stderr.write(`mcp-loupe tap: Loupe is running: ${started.url}/?token=${started.link()}\n`);
  }
  const feed = startLiveFeed({
    dataDir,
    session,
    target,
    transport,
    faults,
    ...(seed !== undefined ? { seed } : {}),
    log,
    ...(opts.open
      ? {
          onLive: (page: string) => {
            const loupe = findLoupe(dataDir);
            const say = (line: string) => process.stderr.write(`mcp-loupe tap: ${line}\n`);
            // A one-time link from the running Loupe: the control token never goes on a command line.
            const link = loupe ? requestSignInLink(loupe, new URL(page).pathname) : Promise.resolve(page);
            link
              .then((url) => openBrowser(url, say))
              .catch((e: unknown) => say(`${(e as Error).message}; open ${page} and sign in with \`npx mcp-loupe link\``));
          },
        }
      : {}),
  });
  return {
    async stop() {
      await feed.stop();
      await started?.close();
    },
  };
}

function finishSession(session: TapSession, log: (line: string) => void): void {
  try {
    const done = session.finish();
    if (done.recordFile) log(`recorded ${done.frames} frames to ${done.recordFile}`);
    if (done.reportFile) log(`report written to ${done.reportFile}`);
  } catch (e) {
    process.stderr.write(`mcp-loupe tap: could not write the recording or report: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}

async function runTap(command: string[], opts: TapOptions): Promise<void> {
  const verbose = (line: string) => {
    if (opts.verbose) process.stderr.write(`mcp-loupe tap: ${line}\n`);
  };
  if (opts.record) checkRecordTarget(opts.record);
  if (command.length && !process.argv.includes('--'))
    throw new UsageError(`unexpected '${command[0]}': put the stdio server's command after -- (tap -- node server.js)`);
  if (opts.upstream && command.length) throw new UsageError('pass either --upstream URL or a stdio command after --, not both');
  if (!opts.upstream && !command.length) throw new UsageError('nothing to tap: pass --upstream URL (HTTP) or a server command after -- (stdio)');
  const fileFaults = loadFaults(opts.faults);
  const seed = opts.seed ?? fileFaults.seed;
  const faults = createTapFaults(fileFaults.entries, seed ?? 0);
  const sessionOptions = {
    ...(opts.record ? { recordFile: opts.record } : {}),
    ...(opts.report ? { reportFile: opts.report } : {}),
    keepSecrets: !opts.redact,
  };

  if (!opts.upstream) {
    const [cmd, ...args] = command as [string, ...string[]];
    const session = createTapSession({ ...sessionOptions, connection: describeConnection({ target: command.join(' '), transport: 'stdio' }) });
    keepRunningWhenStdoutCloses();
    const live = await goLive(opts, session, faults, session.recording().connection.target, 'stdio', seed, verbose);
    verbose(`starting ${cmd}`);
    const exit = await runStdioTap({ command: cmd, args, observer: session.observer, log: verbose, faults });
    verbose(exit.signal ? `server ended by ${exit.signal}` : `server exited with code ${exit.code}`);
    await live?.stop();
    finishSession(session, verbose);
    if (exit.signal) {
      // Die of the same signal, as the server did, so the client sees what it would without the tap.
      process.kill(process.pid, exit.signal);
      return;
    }
    process.exit(process.exitCode && exit.code === 0 ? Number(process.exitCode) : exit.code);
  }

  const upstream = parseHttpUrl(opts.upstream, '--upstream');
  const port = parsePort(opts.port);
  const host = opts.host;
  if ((host === '0.0.0.0' || host === '::') && !opts.allowRemote)
    throw new UsageError(`Refusing to bind ${host}: that exposes the tap to the network. Pass --allow-remote if you mean it.`);
  const session = createTapSession({ ...sessionOptions, connection: describeConnection({ target: upstream.toString(), transport: 'http' }) });
  const tap = await startHttpTap({ upstream, host, port, observer: session.observer, allowedHosts: opts.allowedHost ?? [], log: verbose, faults }).catch(
    (e: unknown) => {
      throw listenFailure(e, host, port);
    },
  );
  const say = (line: string) => process.stdout.write(`mcp-loupe tap: ${line}\n`);
  const live = await goLive(opts, session, faults, session.recording().connection.target, 'http', seed, say);
  say(`${tap.url} → ${upstream.origin}${upstream.pathname}`);
  warnBlockedPort('tap', Number(new URL(tap.url).port));
  process.stdout.write(`READY ${tap.url}\n`);
  let stopping = false;
  const finish = () => {
    finishSession(session, (line) => process.stdout.write(`mcp-loupe tap: ${line}\n`));
    process.exit(process.exitCode ?? 0);
  };
  // A signal often comes twice (GNU timeout and a process-group kill each send one): the second
  // stops waiting for connections to close, but still writes the recording and the report.
  const stop = async () => {
    if (stopping) return finish();
    stopping = true;
    await tap.close();
    await live?.stop();
    finish();
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

/** Register `mcp-loupe tap`. */
export function registerTapCommand(program: Command): void {
  program
    .command('tap')
    .description('relay a real client to a real server unchanged, recording and linting the traffic (HTTP: --upstream URL; stdio: -- command args)')
    .argument('[command...]', 'after --: the stdio server to run behind the tap (-- node server.js --flag)')
    .option('--upstream <url>', 'the HTTP MCP endpoint to relay to')
    .option('--port <n>', 'local port of the HTTP tap (0 = any free port)', '3003')
    .option('--host <h>', 'interface to bind', '127.0.0.1')
    .option('--allow-remote', 'allow binding a non-loopback interface')
    .option('--allowed-host <name...>', 'extra Host names to accept besides loopback')
    .option('--record <file>', 'write the session as a Loupe recording (kept up to date while the tap runs)')
    .option('--report <file>', 'when the tap ends, write the lint report: JUnit XML for a .xml file, else JSON')
    .option('--no-redact', 'keep secrets (Authorization, cookies, tokens, task ids) in the recording')
    .option('--verbose', 'say what the tap does, on stderr')
    .option('--data-dir <d>', 'the data directory of the Loupe to show the tap in (default .loupe or $LOUPE_DATA_DIR)')
    .option('--faults <file>', 'faults to inject (YAML or JSON: a list of scenario faults, or { seed, faults }); switch them in the UI too')
    .option('--seed <s>', 'seed of the fault probabilities and latency distributions')
    .option('--no-live', 'do not show the tap in a running Loupe')
    .option('--open', 'start Loupe if none runs on the data directory, and open the tap in the browser')
    .action((command: string[], opts: TapOptions) => runTap(command, opts));
}
