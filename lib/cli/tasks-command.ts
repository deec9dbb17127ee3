import type { Command } from 'commander';
import { TASK_ACTIONS, type TaskAction } from '../protocol/loupe-api';
import { controlToken } from './control-token';
import { isRecord } from '../shared/records';
import { parseJsonFlag } from './client-args';
import { typedTaskLabel } from './client-output';
import { CliFailure, UsageError } from './errors';
import { describeNetworkError, parseHttpUrl } from './network';
import { printable } from './terminal';
import { taskIdArgument } from './task-id-argument';

/**
 * `mcp-loupe tasks advance|complete|fail|cancel|expire|require-input TASK_ID --url URL --token T`:
 * drive a running mock's tasks through its control API.
 */

/** One control-API call: its status and its JSON body (`{}` when it has none). */
async function post(target: URL, token: string, body: string, url: string): Promise<{ res: Response; body: ControlAnswer }> {
  let res: Response;
  try {
    res = await fetch(target, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body });
  } catch (e) {
    throw new CliFailure(`cannot reach ${url}: ${describeNetworkError(e, target.toString())}`, 'unreachable');
  }
  return { res, body: (await res.json().catch(() => ({}))) as ControlAnswer };
}

/** A scenario id as scenario files allow it (lib/scenario/schema.ts): a server naming anything else is not followed. */
const SCENARIO_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

type ControlAnswer = { task?: { status?: string; statusMessage?: string }; error?: string; scenario?: string };

/** A --json body each action reads, for the error that says what --json must be. */
const JSON_EXAMPLE: Partial<Record<string, string>> = {
  complete: '{"result":{"content":[{"type":"text","text":"done"}]}}',
  fail: '{"error":{"code":-32603,"message":"failed"}}',
  'require-input': '{"inputRequests":{...}}',
};

async function control(
  action: string,
  taskId: string,
  opts: { url: string; token?: string; dataDir?: string; scenario?: string; json?: string },
): Promise<void> {
  // Checked here, so a typo is a usage error that says so, not the server's "Body must be a JSON object".
  const parsed = parseJsonFlag('--json', opts.json);
  if (parsed !== undefined && !isRecord(parsed)) throw new UsageError(`--json must be a JSON object, e.g. ${JSON_EXAMPLE[action] ?? '{}'}`);
  const body = opts.json ?? '{}';
  const base = parseHttpUrl(opts.url);
  const named = opts.scenario ?? base.pathname.split('/').filter(Boolean)[1];
  const token = controlToken(opts, base);
  const targetOf = (scenario: string) => new URL(`/api/scenarios/${encodeURIComponent(scenario)}/tasks/${encodeURIComponent(taskId)}/${action}`, base);
  let answer = await post(targetOf(named ?? 'demo'), token, body, opts.url);
  // A plain `/mcp` serves whatever scenario the mock was started with, not necessarily demo: the
  // control API names the scenario that holds the task, and the action goes there.
  if (named === undefined && answer.res.status === 404 && typeof answer.body.scenario === 'string' && SCENARIO_ID.test(answer.body.scenario))
    answer = await post(targetOf(answer.body.scenario), token, body, opts.url);
  if (!answer.res.ok) {
    const hint = answer.body.scenario ? ` (pass --scenario ${answer.body.scenario})` : '';
    // The server's words, made printable: a hostile mock must not write escape codes to the terminal.
    throw new CliFailure(printable(`Failed to ${action} task: ${answer.body.error ?? `HTTP ${answer.res.status}`}${hint}`));
  }
  // What the user typed is echoed: it may hold control characters, so every line goes through printable.
  const task = `task ${typedTaskLabel(taskId)}`;
  // Expire deletes the task: the record the API returns is its last word, not a state it is in.
  if (action === 'expire') process.stdout.write(printable(`expire: ${task} has expired and is deleted (a client's tasks/get no longer finds it)\n`));
  // An input step ends with the client's answer, not with advance: say how to move it on.
  else if (action === 'advance' && answer.body.task?.status === 'input_required')
    process.stdout.write(
      printable(
        `advance: ${task} waits for input (input_required); advance does not answer it. Answer as the client would (\`mcp-loupe task update ID --input-responses JSON\`), or end it with \`mcp-loupe tasks complete\` or \`tasks fail\`.\n`,
      ),
    );
  else
    process.stdout.write(
      printable(`${action}: ${task} is now ${answer.body.task?.status}${answer.body.task?.statusMessage ? ` (${answer.body.task.statusMessage})` : ''}\n`),
    );
}

/** What each action does, for `mcp-loupe tasks --help` (the list was names only). */
const SUMMARY: Record<TaskAction, string> = {
  advance: 'finish the current step now (a manual or timed step)',
  complete: 'complete the task, with --json \'{"result":{...}}\' or a canned result',
  fail: 'fail the task, with --json \'{"error":{"code":N,"message":"..."}}\' or an internal error',
  cancel: 'cancel the task',
  expire: 'delete the task as if its TTL had run out',
  'require-input': 'move the task to input_required, with --json \'{"inputRequests":{...}}\' or an operator question',
};

/** Register `mcp-loupe tasks <action>`, one subcommand per control-API task action. */
export function registerTaskCommands(program: Command): void {
  const tasks = program.command('tasks').description("drive a running mock's tasks (control API)");
  for (const action of TASK_ACTIONS) {
    taskIdArgument(tasks.command(action), false)
      .description(SUMMARY[action])
      .requiredOption('--url <url>', 'the mock endpoint, e.g. http://127.0.0.1:3001/mcp')
      .option('--token <token>', 'control token printed by `mcp-loupe mock` (or $LOUPE_TOKEN)')
      .option('--data-dir <dir>', 'without --token: the data directory of the Loupe at --url (`mcp-loupe open`), whose token it holds')
      .option('--scenario <id>', 'scenario id (default: from the URL, else the one that holds the task)')
      .option('--json <body>', 'JSON body: {"result":...} for complete, {"error":...} for fail')
      .action((taskId, opts) => control(action, taskId, opts));
  }
}
