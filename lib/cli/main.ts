import { Command } from 'commander';
import { runMockCommand } from './mock-command';
import { runValidateCommand } from './validate-command';
import { registerTaskCommands } from './tasks-command';
import { registerClientCommands } from './client-commands';
import { registerClientTaskCommands } from './client-task-commands';
import { registerConformanceClient } from './conformance-client';
import { registerScenarioCommands } from './scenarios-command';
import { registerRecordingCommands } from './recording-commands';
import { registerOpenCommand } from './open-command';

/** The `mcp-loupe` command line. */
function buildProgram(): Command {
  const program = new Command('mcp-loupe').description('Inspector and scriptable mock server for MCP 2026-07-28').version('0.1.0');
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
      'memory: keep tasks in memory only, never touch the disk; sqlite: the SQLite file or fail (default: SQLite, else memory with a warning; or $LOUPE_STORE)',
    )
    .option('--seed <s>', 'seed for probabilistic faults')
    .option('--manual', 'every timed task step waits for `mcp-loupe tasks advance`')
    .option('--allow-remote', 'allow binding a non-loopback interface')
    .option('--allowed-host <name...>', 'extra Host names to accept besides loopback')
    .action((scenario, opts) => runMockCommand(scenario, opts));
  program
    .command('validate')
    .description('check a scenario file and print every error with its line')
    .argument('<file>')
    .action((file) => runValidateCommand(file));
  registerTaskCommands(program);
  registerScenarioCommands(program);
  registerClientCommands(program);
  registerClientTaskCommands(program);
  registerConformanceClient(program);
  registerRecordingCommands(program);
  registerOpenCommand(program);
  return program;
}

buildProgram()
  .parseAsync(process.argv)
  .catch((e: unknown) => {
    process.stderr.write(`mcp-loupe: ${(e as Error).message}\n`);
    process.exit(1);
  });
