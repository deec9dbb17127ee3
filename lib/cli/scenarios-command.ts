import type { Command } from 'commander';
import { createControlClient } from '../client/control-client';

/**
 * `mcp-loupe scenarios list|reset ...`: manage a running Loupe's scenarios through its control API
 * (`mcp-loupe mock` or `npm start`).
 */

interface ConnectionOptions {
  url: string;
  token?: string;
}

function clientFor(opts: ConnectionOptions) {
  const token = opts.token ?? process.env.LOUPE_TOKEN;
  if (!token) throw new Error('Failed to reach the control API: pass --token or set LOUPE_TOKEN (printed when the mock starts)');
  return createControlClient({ baseUrl: opts.url, token });
}

/** `scenarios reset ID`: restore the scenario's initial state; drop its tasks, ledger, nonces and journal. */
async function resetScenario(id: string, opts: ConnectionOptions): Promise<void> {
  const reply = await clientFor(opts).reset(id);
  if (!reply.ok) throw new Error(`Failed to reset scenario ${id}: ${reply.error}`);
  process.stdout.write(`reset: scenario "${reply.data.reset}" is back to its initial state\n`);
}

/** `scenarios list`: one line per scenario. */
async function listScenarios(opts: ConnectionOptions): Promise<void> {
  const reply = await clientFor(opts).list();
  if (!reply.ok) throw new Error(`Failed to list scenarios: ${reply.error}`);
  for (const s of reply.data.scenarios) {
    const kind = s.builtin ? 'built-in' : s.valid ? 'saved' : 'saved, invalid';
    process.stdout.write(`${s.id}\t${kind}\t${s.name ?? ''}\n`);
  }
}

/** Add `scenarios reset` and `scenarios list` to the program. */
export function registerScenarioCommands(program: Command): void {
  const scenarios = program.command('scenarios').description("manage a running mock's scenarios (control API)");
  const connection = (c: Command) =>
    c
      .requiredOption('--url <url>', 'the running Loupe, e.g. http://127.0.0.1:3001/mcp or http://127.0.0.1:3000')
      .option('--token <token>', 'control token printed at start (or $LOUPE_TOKEN)');
  connection(scenarios.command('reset').description("reset a scenario's state, tasks, ledger, nonces and journal").argument('<id>')).action((id, opts) =>
    resetScenario(id, opts),
  );
  connection(scenarios.command('list').description('list built-in and saved scenarios')).action((opts) => listScenarios(opts));
}
