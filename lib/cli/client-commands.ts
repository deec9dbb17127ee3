import type { Command } from 'commander';
import { ERROR, EXT, type InputResponses } from '../protocol';
import type { ObservedTask } from '../client/task-api';
import { parseJsonFlag, toolArguments, UsageError, type ConnectionFlags } from './client-args';
import { clientContext, connectionOptions, describeInput, printToolResult, waitForTask, type ClientContext } from './client-context';
import { err, formatDiscover, formatFailure, formatTask, formatTools, out, printJson } from './client-output';

/**
 * The headless client: `mcp-loupe discover | tools | call TOOL | task get|update|cancel|result|list`.
 * Exit codes: 0 done (a tool's isError result included, unless --strict-errors), 1 a failure
 * (JSON-RPC error, failed or cancelled task, TTL expiry, --timeout, transport failure),
 * 2 a usage mistake.
 */

type Action = (ctx: ClientContext) => Promise<number>;

/**
 * Task commands are refused before anything is sent when the server declared no task support
 * (the tasks extension in server/discover, or the 2025-11-25 `tasks` capability); when the
 * capabilities are unknown (a forced era without discovery) the server answers for itself.
 */
async function tasksRefusal(ctx: ClientContext, need?: 'list'): Promise<string | undefined> {
  const s = ctx.session;
  const c = await s.connect();
  if (c.type === 'failure') return formatFailure(c);
  const caps = s.server?.capabilities as { extensions?: Record<string, unknown>; tasks?: { list?: unknown } } | undefined;
  if (!caps) return undefined;
  if (s.era === 'modern') return caps.extensions?.[EXT.tasks] ? undefined : `The server does not declare the ${EXT.tasks} extension; no task command was sent.`;
  if (!caps.tasks) return 'The server declared no tasks capability (2025-11-25); no task command was sent.';
  if (need === 'list' && !caps.tasks.list) return 'The server did not declare tasks.list; tasks/list was not sent.';
  return undefined;
}

/** Run a task command unless the server declared no task support. */
const taskAction =
  (action: Action, need?: 'list'): Action =>
  async (ctx) => {
    const refusal = await tasksRefusal(ctx, need);
    if (refusal) {
      err(refusal);
      return 1;
    }
    return action(ctx);
  };

/** Run an action with a session from the flags, mapping outcomes to exit codes. */
async function run(flags: ConnectionFlags, action: Action): Promise<void> {
  let ctx: ClientContext | undefined;
  try {
    ctx = clientContext(flags);
    process.exitCode = await action(ctx);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`mcp-loupe: ${e.message}`);
    process.exitCode = 2;
  } finally {
    ctx?.finish();
  }
}

async function discover(ctx: ClientContext): Promise<number> {
  const s = ctx.session;
  const c = await s.connect();
  let shown = c;
  if (s.era === 'modern' && !(c.type === 'complete' && 'supportedVersions' in c.result)) shown = await s.discover();
  if (shown.type !== 'complete') {
    err(formatFailure(shown));
    return 1;
  }
  if (ctx.flags.json) printJson(shown.result);
  else out(formatDiscover(shown.result, s.era, s.protocolVersion));
  return 0;
}

async function tools(ctx: ClientContext): Promise<number> {
  const list = await ctx.session.listTools();
  if (list.outcome.type !== 'complete') {
    err(formatFailure(list.outcome));
    return 1;
  }
  if (ctx.flags.json) printJson({ tools: list.tools, dropped: list.dropped });
  else out(formatTools(list.tools, list.dropped));
  return 0;
}

interface CallFlags extends ConnectionFlags {
  args?: string;
  task?: boolean;
  wait?: boolean;
  strictErrors?: boolean;
  ttl?: string;
}

async function call(ctx: ClientContext, name: string, words: string[], flags: CallFlags): Promise<number> {
  const s = ctx.session;
  const listed = await s.listTools();
  if (listed.outcome.type !== 'complete') err(`warning: tools/list failed (${formatFailure(listed.outcome)}); arguments are not checked against the schema`);
  const args = toolArguments(words, flags.args, s.tool(name));
  const ttlMs = flags.ttl === undefined ? undefined : Number(flags.ttl);
  if (ttlMs !== undefined && (!Number.isInteger(ttlMs) || ttlMs < 0)) throw new UsageError('--ttl must be a number of milliseconds');
  if (!flags.json) err(`Calling ${name}${flags.task ? ' as a task' : ''}...`);
  const outcome = await s.callWithInput(name, args, (reqs) => ctx.answer(reqs), {
    task: !!flags.task,
    ...(ttlMs !== undefined ? { ttlMs } : {}),
    onProgress: (p) => {
      if (!flags.json) err(`progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}${p.message ? ` — ${p.message}` : ''}`);
    },
  });
  switch (outcome.type) {
    case 'complete':
      if (flags.task) err('The server answered directly; no task was created.');
      return printToolResult(ctx, outcome.result, !!flags.strictErrors);
    case 'task': {
      const task = outcome.task as ObservedTask;
      if (flags.wait) {
        if (!flags.json) err(`Task ${ctx.label(task.taskId)} created; waiting for it to finish (up to ${ctx.timeoutMs} ms)...`);
        return waitForTask(ctx, task, outcome.form, !!flags.strictErrors);
      }
      if (flags.json) printJson({ form: outcome.form, task });
      else {
        out(`Task ${ctx.label(task.taskId)} created: ${task.status}${task.statusMessage ? ` — ${task.statusMessage}` : ''}`);
        const id = flags.revealIds ? task.taskId : '<task-id>';
        out(`Poll:   mcp-loupe task get ${id} --url ${flags.url}`);
        if (!flags.revealIds) out('The task id can act as a bearer token; it is printed with --json or --reveal-ids.');
      }
      return 0;
    }
    case 'abandoned':
      err(
        `The server needs input before ${name} can run: ${describeInput(outcome.inputRequests)}. Answer with --elicit-stub / --sampling-stub / --roots-stub.`,
      );
      return 1;
    case 'error':
      err(formatFailure(outcome));
      if (outcome.error.code === ERROR.missingRequiredClientCapability && !flags.task && JSON.stringify(outcome.error.data ?? {}).includes(EXT.tasks)) {
        err(`${name} runs only as a task: add --task (declares the ${EXT.tasks} extension on this call).`);
      }
      return 1;
    default:
      err(formatFailure(outcome));
      return 1;
  }
}

async function taskGet(ctx: ClientContext, id: string): Promise<number> {
  const r = await ctx.session.getTask(id);
  if (r.type !== 'snapshot') {
    err(formatFailure(r));
    return 1;
  }
  if (ctx.flags.json) printJson({ form: r.form, task: r.task });
  else {
    out(formatTask(r.task, !!ctx.flags.revealIds));
    if (r.task.status === 'input_required') out('Answer:   mcp-loupe task update ID --input-responses JSON (or --elicit-stub / --sampling-stub)');
  }
  return 0;
}

async function taskUpdate(ctx: ClientContext, id: string, responsesJson: string | undefined): Promise<number> {
  let responses = parseJsonFlag('--input-responses', responsesJson) as InputResponses | undefined;
  if (responses === undefined) {
    const r = await ctx.session.getTask(id);
    if (r.type !== 'snapshot') return (err(formatFailure(r)), 1);
    const pending = r.task.inputRequests ?? {};
    if (!Object.keys(pending).length) return (err(`Task ${ctx.label(id)} is ${r.task.status}; it waits for no input.`), 1);
    responses = await ctx.answer(pending);
    if (!responses) return (err(`No stub answers every request: ${describeInput(pending)}. Pass --input-responses JSON or the stub flags.`), 2);
  }
  if (!responses || typeof responses !== 'object' || Array.isArray(responses))
    throw new UsageError('--input-responses must be a JSON object keyed by input request');
  const ack = await ctx.session.updateTask(id, responses);
  if (ack.type !== 'complete') return (err(formatFailure(ack)), 1);
  if (ctx.flags.json) printJson(ack.result);
  else out(`Answers sent for task ${ctx.label(id)} (${Object.keys(responses).join(', ')}). The ack is not a status change; check with \`mcp-loupe task get\`.`);
  return 0;
}

async function taskCancel(ctx: ClientContext, id: string, wait: boolean): Promise<number> {
  const s = ctx.session;
  const first = await s.getTask(id);
  if (first.type !== 'snapshot') return (err(formatFailure(first)), 1);
  const follower = wait ? s.followTask(first.task, { waitMs: ctx.timeoutMs, listen: !!ctx.flags.listen }) : undefined;
  const ack = follower ? await follower.cancel() : await s.cancelTask(id);
  if (ack.type !== 'complete') {
    follower?.stop();
    return (err(formatFailure(ack)), 1);
  }
  if (s.era === 'legacy') out(`Task ${ctx.label(id)} cancel answered: ${String(ack.result.status ?? '?')}.`);
  else if (!ctx.flags.json) out(`Cancellation requested for task ${ctx.label(id)}. The server acknowledges it; the task may still finish.`);
  if (!follower) {
    if (ctx.flags.json) printJson(ack.result);
    return 0;
  }
  if (!ctx.flags.json) err('Following the task until it reaches a terminal status (the ack is not final)...');
  const code = await waitForTask(ctx, first.task, first.form, false, follower);
  // A cancel that ends in `cancelled` is what was asked for.
  return follower.task.status === 'cancelled' ? 0 : code;
}

async function taskResult(ctx: ClientContext, id: string, strict: boolean): Promise<number> {
  const r = await ctx.session.getTask(id);
  if (r.type !== 'snapshot') return (err(formatFailure(r)), 1);
  return waitForTask(ctx, r.task, r.form, strict);
}

async function taskList(ctx: ClientContext): Promise<number> {
  const r = await ctx.session.listTasks();
  if (r.type !== 'tasks') return (err(formatFailure(r)), 1);
  if (ctx.flags.json) printJson({ form: 'legacy', tasks: r.tasks });
  else
    out(
      r.tasks
        .map((t) => `${t.status.padEnd(15)} ${ctx.label(t.taskId)}  updated ${t.lastUpdatedAt}${t.statusMessage ? `  ${t.statusMessage}` : ''}`)
        .join('\n') || '(no tasks)',
    );
  return 0;
}

/** Register the client commands on the program. */
export function registerClientCommands(program: Command): void {
  connectionOptions(program.command('discover').description('server/discover (or the 2025-11-25 handshake): identity, versions, capabilities')).action(
    (f: ConnectionFlags) => run(f, discover),
  );
  connectionOptions(program.command('tools').description('tools/list, with tools whose x-mcp-header annotations are invalid dropped')).action(
    (f: ConnectionFlags) => run(f, tools),
  );
  connectionOptions(
    program
      .command('call')
      .description('tools/call TOOL with key=value arguments (answers input requests with the stub flags)')
      .argument('<tool>')
      .argument('[args...]', 'arguments as key=value (typed by the tool schema)')
      .option('--args <json>', 'arguments as a JSON object')
      .option('--task', 'call as a task (declares the tasks extension; a plain call never does)')
      .option('--wait', 'with --task: follow the task to its end, bounded by --timeout')
      .option('--strict-errors', 'exit 1 when the tool returns isError: true')
      .option('--ttl <ms>', '2025-11-25 only: ask the server to keep the task this long'),
  ).action((tool: string, words: string[], f: CallFlags) => run(f, (ctx) => call(ctx, tool, words, f)));

  const task = program.command('task').description('follow and steer tasks (tasks extension, or 2025-11-25 experimental tasks)');
  connectionOptions(task.command('get').argument('<taskId>').description('tasks/get: status, TTL, pending input, result')).action(
    (id: string, f: ConnectionFlags) =>
      run(
        f,
        taskAction((ctx) => taskGet(ctx, id)),
      ),
  );
  connectionOptions(
    task
      .command('update')
      .argument('<taskId>')
      .description('tasks/update: answer pending input requests')
      .option('--input-responses <json>', 'answers keyed by input request'),
  ).action((id: string, f: ConnectionFlags & { inputResponses?: string }) =>
    run(
      f,
      taskAction((ctx) => taskUpdate(ctx, id, f.inputResponses)),
    ),
  );
  connectionOptions(
    task
      .command('cancel')
      .argument('<taskId>')
      .description('tasks/cancel (the ack is not final)')
      .option('--wait', 'keep polling until the task reaches a terminal status'),
  ).action((id: string, f: ConnectionFlags & { wait?: boolean }) =>
    run(
      f,
      taskAction((ctx) => taskCancel(ctx, id, !!f.wait)),
    ),
  );
  connectionOptions(
    task
      .command('result')
      .argument('<taskId>')
      .description('wait for the task to end and print its result')
      .option('--strict-errors', 'exit 1 when the result has isError: true'),
  ).action((id: string, f: ConnectionFlags & { strictErrors?: boolean }) =>
    run(
      f,
      taskAction((ctx) => taskResult(ctx, id, !!f.strictErrors)),
    ),
  );
  connectionOptions(task.command('list').description('tasks/list (2025-11-25 only)')).action((f: ConnectionFlags) => run(f, taskAction(taskList, 'list')));
}
