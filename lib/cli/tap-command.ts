import type { Command } from 'commander';
import { describeConnection } from '../recording/connection';
import { createTapSession, type TapSession } from '../server/tap-recorder';
import { startHttpTap } from '../server/tap-http';
import { runStdioTap } from '../server/tap-stdio';
import { checkRecordTarget } from './record-file';
import { UsageError } from './errors';
import { listenFailure, parseHttpUrl, parsePort } from './network';

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
  const sessionOptions = {
    ...(opts.record ? { recordFile: opts.record } : {}),
    ...(opts.report ? { reportFile: opts.report } : {}),
    keepSecrets: !opts.redact,
  };

  if (!opts.upstream) {
    const [cmd, ...args] = command as [string, ...string[]];
    const session = createTapSession({ ...sessionOptions, connection: describeConnection({ target: command.join(' '), transport: 'stdio' }) });
    process.stdout.on('error', () => {});
    verbose(`starting ${cmd}`);
    const exit = await runStdioTap({ command: cmd, args, observer: session.observer, log: verbose });
    verbose(exit.signal ? `server ended by ${exit.signal}` : `server exited with code ${exit.code}`);
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
  const tap = await startHttpTap({ upstream, host, port, observer: session.observer, allowedHosts: opts.allowedHost ?? [], log: verbose }).catch(
    (e: unknown) => {
      throw listenFailure(e, host, port);
    },
  );
  process.stdout.write(`mcp-loupe tap: ${tap.url} → ${upstream.origin}${upstream.pathname}\n`);
  process.stdout.write(`READY ${tap.url}\n`);
  const stop = async () => {
    await tap.close();
    finishSession(session, (line) => process.stdout.write(`mcp-loupe tap: ${line}\n`));
    process.exit(process.exitCode ?? 0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
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
    .action((command: string[], opts: TapOptions) => runTap(command, opts));
}
