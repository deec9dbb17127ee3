import { Command, CommanderError, Option } from 'commander';
import { runMockCommand } from './mock-command';
import { runValidateCommand } from './validate-command';
import { registerTaskCommands } from './tasks-command';
import { registerClientCommands } from './client-commands';
import { registerClientContentCommands } from './client-content-commands';
import { registerClientTaskCommands } from './client-task-commands';
import { registerConformanceClient } from './conformance-client';
import { registerScenarioCommands } from './scenarios-command';
import { registerRecordingCommands } from './recording-commands';
import { commandNamed, errorOfThrown, jsonErrorsRequested, reportError, UsageError } from './errors';
import { VERSION } from './version';
import { registerOpenCommand } from './open-command';
import { registerTapCommand } from './tap-command';
import { registerLinkCommand } from './link-command';
import { stopQuietlyOnClosedPipes } from './closed-pipe';

/** The `mcp-loupe` command line. Exit codes and the `--json` error document: errors.ts. */
function buildProgram(): Command {
  const program = new Command('mcp-loupe').description('Inspector and scriptable mock server for MCP 2026-07-28').version(VERSION);
  // Set before any subcommand exists, which copies them: parse errors are thrown (and exit 2)
  // instead of commander exiting 1, and reported below like every other error.
  program.exitOverride();
  program.configureOutput({ outputError: () => {} });
  // The program's own -V and -h only before a command: after one, `task get -Vx1` read the task
  // id "-Vx1" (ids may begin with "-", see task-id-argument.ts) as -V and printed the version.
  program.enablePositionalOptions();
  program
    .command('mock')
    .description('serve a scenario (built-in id or YAML/JSON file) as an MCP endpoint')
    .argument('[scenario]', 'built-in id (demo, conformance, ...) or a scenario file', 'demo')
    .option('--port <n>', 'port (0 = any free port)', '3001')
    .option('--host <h>', 'interface to bind', '127.0.0.1')
    .option('--stdio', 'serve on stdin/stdout instead of HTTP')
    .option('--data-dir <d>', 'where tasks, the ledger and nonces are kept (default .loupe or $LOUPE_DATA_DIR)')
    .option(
      '--store <kind>',
      'memory: keep tasks in memory only, never touch the disk; sqlite: the SQLite file or fail; postgres://…: a PostgreSQL database shared by a fleet of mock instances (default: SQLite, else memory with a warning; or $LOUPE_STORE)',
    )
    .option('--seed <s>', 'seed for probabilistic faults')
    .option('--manual', 'every timed task step waits for `mcp-loupe tasks advance`')
    .option('--allow-remote', 'allow binding a non-loopback interface')
    .option('--allowed-host <name...>', 'extra Host names to accept besides loopback')
    .option('--report <file>', "on exit, write the client's report card: JUnit XML for a .xml file, else JSON")
    .addOption(new Option('--token <t>').hideHelp())
    .action((scenario, opts) => runMockCommand(scenario, opts));
  program
    .command('validate')
    .description('check a scenario file and print every error with its line')
    .argument('<file>')
    .action((file) => runValidateCommand(file));
  registerTaskCommands(program);
  registerScenarioCommands(program);
  registerClientCommands(program);
  registerClientContentCommands(program);
  registerClientTaskCommands(program);
  registerConformanceClient(program);
  registerRecordingCommands(program);
  registerOpenCommand(program);
  registerTapCommand(program);
  registerLinkCommand(program);
  return program;
}

/** `mcp-loupe task get`: the words that name a command, for the "see --help" hint. */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * The first word that names no command. `open` is the default command, so commander would hand
 * a typo to it (and then complain about the typo's options instead); a stdio server's command
 * line comes after `--`, so a stray word before it is an unknown command.
 */
function strayCommandWord(program: Command, args: string[]): string | undefined {
  const names = new Set(program.commands.flatMap((c) => [c.name(), ...c.aliases()]));
  const open = program.commands.find((c) => c.name() === 'open');
  const takesValue = new Set((open?.options ?? []).filter((o) => o.required || o.optional).map((o) => o.long));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') return undefined;
    if (arg.startsWith('-')) {
      if (!arg.includes('=') && takesValue.has(arg)) i++;
      continue;
    }
    return names.has(arg) ? undefined : arg;
  }
  return undefined;
}

stopQuietlyOnClosedPipes();
const program = buildProgram();
const args = process.argv.slice(2);
const json = jsonErrorsRequested(program, args);
const stray = strayCommandWord(program, args);
const parsed =
  stray === undefined
    ? program.parseAsync(process.argv)
    : Promise.reject(new UsageError(`unknown command '${stray}' (to inspect a stdio server, put its command after --)`));
parsed.catch((e: unknown) => {
  const { error, exitCode, quiet } = errorOfThrown(e);
  if (error && (json || !quiet)) {
    reportError(error, json);
    if (!json && e instanceof CommanderError) process.stderr.write(`See '${commandPath(commandNamed(program, args))} --help'.\n`);
  }
  process.exitCode = exitCode;
  // A failed command may leave a socket or a timer behind; its exit code must not wait on them.
  setTimeout(() => process.exit(exitCode), 500).unref();
});
