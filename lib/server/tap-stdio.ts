import { spawn } from 'node:child_process';
import type { TapObserver } from '../recording/tap-frames';
import { childEnv } from './child-env';
import type { TapFaults } from './tap-faults';
import { createStdioFaultRelay } from './tap-stdio-faults';
import { splitLines } from './stdio-lines';

/**
 * The stdio tap: put in a client's configuration in place of a server's command, it spawns the
 * server and relays the client's stdin to it and its stdout back, chunk for chunk as the bytes
 * arrive (so the line framing is the server's own), while the observer gets a copy of each line.
 * The server's stderr passes through. Signals are forwarded; the tap ends as the server ends.
 * It writes nothing of its own to stdout.
 */

interface StdioTapOptions {
  command: string;
  args: readonly string[];
  observer: TapObserver;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** Diagnostics for stderr (only with --verbose, or on error). */
  log?: (line: string) => void;
  /** Faults switched on for this tap (none: a pure relay). */
  faults?: TapFaults;
}

/** How the server ended: its exit code, or the signal that ended it. */
type StdioTapExit = { code: number; signal?: undefined } | { code?: undefined; signal: NodeJS.Signals };

/** Lines longer than this are relayed but not observed (a frame that big is not a message to show). */
const MAX_OBSERVED_LINE = 16 * 1024 * 1024;

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Run the server behind the tap; resolves when it has exited and its output is drained. */
export function runStdioTap(options: StdioTapOptions): Promise<StdioTapExit> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  return new Promise((resolve) => {
    const child = spawn(options.command, [...options.args], { stdio: ['pipe', 'pipe', 'pipe'], env: childEnv() });
    const forward = (signal: NodeJS.Signals) => () => {
      options.log?.(`forwarding ${signal} to the server`);
      child.kill(signal);
    };
    const handlers = FORWARDED.map((s) => [s, forward(s)] as const);
    for (const [s, h] of handlers) process.on(s, h);

    const tooLong = (who: string) => (bytes: number) => options.log?.(`a ${bytes}-byte line from the ${who} was relayed but not recorded`);
    splitLines(stdin, MAX_OBSERVED_LINE, (line) => options.observer.fromClient(line), tooLong('client'));
    const toServer = (c: Buffer | string) => {
      if (child.stdin.writable) child.stdin.write(c);
    };
    const toClient = (c: Buffer | string) => stdout.write(c);
    const relay = options.faults
      ? createStdioFaultRelay(options.faults, options.observer, { toServer, toClient })
      : { fromClient: toServer, fromServer: toClient, claimed: () => false };
    // The relay hears the server first: a line it observed itself (a fault's copy) is not observed twice.
    child.stdout.on('data', (c: Buffer) => relay.fromServer(c));
    splitLines(child.stdout, MAX_OBSERVED_LINE, (line) => relay.claimed(line) || options.observer.fromServer(line), tooLong('server'));
    stdin.on('data', (c: Buffer) => relay.fromClient(c));
    // The client closed its end: the server's stdin closes too (how stdio servers learn to quit).
    stdin.on('end', () => child.stdin.end());
    child.stdin.on('error', () => {});
    child.stderr.on('data', (c: Buffer) => stderr.write(c));

    child.on('error', (e) => {
      for (const [s, h] of handlers) process.off(s, h);
      stderr.write(`mcp-loupe tap: could not start ${options.command}: ${e.message}\n`);
      resolve({ code: 127 });
    });
    child.on('close', (code, signal) => {
      for (const [s, h] of handlers) process.off(s, h);
      if (stdin !== process.stdin) stdin.removeAllListeners('data');
      resolve(signal ? { signal } : { code: code ?? 1 });
    });
  });
}
