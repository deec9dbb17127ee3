import { CommanderError, type Command } from 'commander';
import type { JsonRpcErrorObject } from '../protocol';

/**
 * How every `mcp-loupe` command ends when it cannot do what it was asked. Exit codes: 0 done,
 * 1 the operation failed (unreachable server, JSON-RPC error, failed task, port in use, ...),
 * 2 a usage mistake (commander's own parse errors included). With `--json`, stdout carries
 * exactly one JSON document: the command's answer, or, when the exit code is not 0, that
 * answer's data (if any) plus an `error` member `{ code, message }`; stderr stays for people.
 */

/** The `error.code` values of the `--json` output. */
type ErrorCode =
  | 'usage'
  | 'unreachable'
  | 'unauthorized'
  | 'timeout'
  | 'rpc'
  | 'invalid-response'
  | 'needs-input'
  | 'task-failed'
  | 'task-cancelled'
  | 'task-expired'
  | 'tool-error'
  | 'unsupported'
  | 'failed';

/** A command's failure as reported to the user. */
export interface CliError {
  code: ErrorCode;
  message: string;
  /** The JSON-RPC error object, for `code: 'rpc'`. */
  rpc?: JsonRpcErrorObject;
}

/** A failure thrown out of a command; the program reports it and exits 1 (2 for usage). */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode = 'failed',
  ) {
    super(message);
  }
}

/** A command-line mistake: printed without a stack, exit code 2. */
export class UsageError extends CliFailure {
  constructor(message: string) {
    super(message, 'usage');
  }
}

/** The exit code for an error: 2 for usage, else 1. */
export function exitCodeOf(error: CliError): 1 | 2 {
  return error.code === 'usage' ? 2 : 1;
}

/**
 * Print an error: with `json`, one document on stdout (`data` beside `error`); else one line on
 * stderr. Returns the exit code.
 */
export function reportError(error: CliError, json: boolean, data: Record<string, unknown> = {}): 1 | 2 {
  if (json) process.stdout.write(`${JSON.stringify({ ...data, error }, null, 2)}\n`);
  else process.stderr.write(`mcp-loupe: ${error.message}\n`);
  return exitCodeOf(error);
}

/** The command the arguments name (the program itself when they name none), as commander will pick it. */
export function commandNamed(program: Command, args: readonly string[]): Command {
  let cmd = program;
  for (const w of args) {
    if (w === '--') break;
    if (w.startsWith('-')) continue;
    const sub = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (!sub) break;
    cmd = sub;
  }
  return cmd;
}

/**
 * Whether errors should come out as JSON: `--json` appears before any `--` and the command
 * named by the arguments does not read `--json` as a value of its own (`tasks complete --json
 * BODY`). Parse errors come before any action runs, so this is read from the raw arguments.
 */
export function jsonErrorsRequested(program: Command, args: readonly string[]): boolean {
  const end = args.indexOf('--');
  if (!(end < 0 ? args : args.slice(0, end)).includes('--json')) return false;
  const own = commandNamed(program, args).options.find((o) => o.long === '--json');
  return !own || own.isBoolean();
}

/**
 * What an error thrown out of the program means: a commander parse error, a failure, or a bug.
 * `quiet`: the text is out already (commander printed the help), unless JSON is wanted.
 */
export function errorOfThrown(e: unknown): { error?: CliError; exitCode: number; quiet?: boolean } {
  if (e instanceof CommanderError) {
    // --help and --version end with exit code 0 and nothing more to say.
    if (e.exitCode === 0) return { exitCode: 0 };
    // The help, shown because a command was missing: still a usage mistake.
    if (e.code === 'commander.help') return { error: { code: 'usage', message: 'a command is required (see mcp-loupe --help)' }, exitCode: 2, quiet: true };
    return { error: { code: 'usage', message: e.message.replace(/^error: /, '') }, exitCode: 2 };
  }
  if (e instanceof CliFailure) return { error: { code: e.code, message: e.message }, exitCode: e.code === 'usage' ? 2 : 1 };
  return { error: { code: 'failed', message: e instanceof Error ? e.message : String(e) }, exitCode: 1 };
}
