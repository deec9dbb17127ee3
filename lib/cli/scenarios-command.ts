import type { Command } from 'commander';
import { createControlClient } from '../client/control-client';
import { controlToken } from './control-token';
import { CliFailure } from './errors';
import { parseHttpUrl, trackedFetch } from './network';
import { printable } from './terminal';

/**
 * `mcp-loupe scenarios list|reset ...`: manage a running Loupe's scenarios through its control API
 * (`mcp-loupe mock` or `npm start`).
 */

interface ConnectionOptions {
  url: string;
  token?: string;
  dataDir?: string;
}

/** A control client for the flags, and how to word a reply that failed. */
function clientFor(opts: ConnectionOptions) {
  const url = parseHttpUrl(opts.url);
  const token = controlToken(opts, url);
  const net = trackedFetch();
  const client = createControlClient({ baseUrl: url.toString(), token, fetch: (input, init) => net.fetch(String(input), init ?? {}) });
  const failed = (what: string, reply: { status: number; error: string }) => {
    const unreachable = reply.status === 0 ? net.lastFailure() : undefined;
    return unreachable ? new CliFailure(`cannot reach ${opts.url}: ${unreachable}`, 'unreachable') : new CliFailure(`Failed to ${what}: ${reply.error}`);
  };
  return { client, failed };
}

/** `scenarios reset ID`: restore the scenario's initial state; drop its tasks, ledger, nonces and journal. */
async function resetScenario(id: string, opts: ConnectionOptions): Promise<void> {
  const { client, failed } = clientFor(opts);
  const reply = await client.reset(id);
  if (!reply.ok) throw failed(`reset scenario ${id}`, reply);
  process.stdout.write(printable(`reset: scenario "${reply.data.reset}" is back to its initial state\n`));
}

/** `scenarios list`: one line per scenario. */
async function listScenarios(opts: ConnectionOptions): Promise<void> {
  const { client, failed } = clientFor(opts);
  const reply = await client.list();
  if (!reply.ok) throw failed('list scenarios', reply);
  for (const s of reply.data.scenarios) {
    // A file given on the command line (`mock FILE`, `open --scenario FILE`): served from that file.
    const kind = s.file ? `file ${s.file}` : s.builtin ? 'built-in' : s.valid ? 'saved' : 'saved, invalid';
    process.stdout.write(`${printable(`${s.id}\t${kind}\t${s.name ?? ''}`)}\n`);
  }
}

/** Add `scenarios reset` and `scenarios list` to the program. */
export function registerScenarioCommands(program: Command): void {
  const scenarios = program.command('scenarios').description("manage a running mock's scenarios (control API)");
  const connection = (c: Command) =>
    c
      .requiredOption('--url <url>', 'the running Loupe, e.g. http://127.0.0.1:3001/mcp or http://127.0.0.1:3000')
      .option('--token <token>', 'control token printed by `mcp-loupe mock` (or $LOUPE_TOKEN)')
      .option('--data-dir <dir>', 'without --token: the data directory of the Loupe at --url (`mcp-loupe open`), whose token it holds');
  connection(scenarios.command('reset').description("reset a scenario's state, tasks, ledger, nonces and journal").argument('<id>')).action((id, opts) =>
    resetScenario(id, opts),
  );
  connection(scenarios.command('list').description('list built-in and saved scenarios')).action((opts) => listScenarios(opts));
}
