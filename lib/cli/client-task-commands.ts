import type { Command } from 'commander';
import { EXT, type InputResponses } from '../protocol';
import { parseJsonFlag, type ConnectionFlags } from './client-args';
import { connectionOptions, runClientAction, type ClientAction, type ClientContext } from './client-context';
import { err, formatTask, out } from './client-output';
import { describeInputSentence, waitForTask } from './client-results';
import { UsageError, type CliError } from './errors';
import { isTerminalStatus } from '../shared/task-status';
import { taskIdArgument } from './task-id-argument';

/**
 * The client's task commands: `mcp-loupe task get|update|cancel|result|list`, spoken to the
 * server over MCP (the tasks extension, or 2025-11-25 experimental tasks). Exit codes as for
 * the other client commands (client-commands.ts).
 */

/**
 * Task commands are refused before anything is sent when the server declared no task support
 * (the tasks extension in server/discover, or the 2025-11-25 `tasks` capability); when the
 * capabilities are unknown (a forced era without discovery) the server answers for itself.
 */
async function tasksRefusal(ctx: ClientContext, need?: 'list'): Promise<CliError | undefined> {
  const s = ctx.session;
  const c = await s.connect();
  if (c.type === 'failure') return ctx.errorOf(c);
  const caps = s.server?.capabilities as { extensions?: Record<string, unknown>; tasks?: { list?: unknown } } | undefined;
  if (!caps) return undefined;
  const refuse = (message: string): CliError => ({ code: 'unsupported', message });
  if (s.era === 'modern')
    return caps.extensions?.[EXT.tasks] ? undefined : refuse(`The server does not declare the ${EXT.tasks} extension; no task command was sent.`);
  if (!caps.tasks) return refuse('The server declared no tasks capability (2025-11-25); no task command was sent.');
  if (need === 'list' && !caps.tasks.list) return refuse('The server did not declare tasks.list; tasks/list was not sent.');
  return undefined;
}

/** Run a task command unless the server declared no task support. */
const taskAction =
  (action: ClientAction, need?: 'list'): ClientAction =>
  async (ctx) => {
    const refusal = await tasksRefusal(ctx, need);
    return refusal ? ctx.fail(refusal) : action(ctx);
  };

async function taskGet(ctx: ClientContext, id: string): Promise<number> {
  const r = await ctx.session.getTask(id);
  if (r.type !== 'snapshot') return ctx.fail(ctx.errorOf(r));
  if (ctx.flags.json) ctx.emit({ form: r.form, task: r.task });
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
    if (r.type !== 'snapshot') return ctx.fail(ctx.errorOf(r));
    const pending = r.task.inputRequests ?? {};
    if (!Object.keys(pending).length) return ctx.fail({ code: 'failed', message: `Task ${ctx.label(id)} is ${r.task.status}; it waits for no input.` });
    responses = await ctx.answer(pending);
    if (!responses)
      return ctx.fail({
        code: 'usage',
        message: `No stub answers every request: ${describeInputSentence(pending)} Pass --input-responses JSON or the stub flags.`,
      });
  }
  if (!responses || typeof responses !== 'object' || Array.isArray(responses))
    throw new UsageError('--input-responses must be a JSON object keyed by input request');
  const ack = await ctx.session.updateTask(id, responses);
  if (ack.type !== 'complete') return ctx.fail(ctx.errorOf(ack));
  if (ctx.flags.json) ctx.emit(ack.result);
  else out(`Answers sent for task ${ctx.label(id)} (${Object.keys(responses).join(', ')}). The ack is not a status change; check with \`mcp-loupe task get\`.`);
  return 0;
}

async function taskCancel(ctx: ClientContext, id: string, wait: boolean): Promise<number> {
  const s = ctx.session;
  const first = await s.getTask(id);
  if (first.type !== 'snapshot') return ctx.fail(ctx.errorOf(first));
  const follower = wait ? s.followTask(first.task, { waitMs: ctx.timeoutMs, listen: !!ctx.flags.listen }) : undefined;
  const ack = follower ? await follower.cancel() : await s.cancelTask(id);
  if (ack.type !== 'complete') {
    follower?.stop();
    return ctx.fail(ctx.errorOf(ack));
  }
  // The 2026-07-28 answer is an empty ack, for a finished task too (idempotent): what the task
  // was just before says whether the cancel could still change anything.
  const finished = isTerminalStatus(first.task.status);
  if (ctx.flags.json) ctx.emit(ack.result);
  else if (s.era === 'legacy') out(`Task ${ctx.label(id)} cancel answered: ${String(ack.result.status ?? '?')}.`);
  else if (finished) out(`Task ${ctx.label(id)} was already ${first.task.status}; the server acknowledged the cancel, which changes nothing.`);
  else out(`Cancellation requested for task ${ctx.label(id)}. The server acknowledges it; the task may still finish.`);
  if (!follower) return 0;
  if (!ctx.flags.json && !finished) err('Following the task until it reaches a terminal status (the ack is not final)...');
  const end = await follower.done;
  // A cancel that ends in `cancelled` is what was asked for; any other end is reported as usual.
  if (end.kind !== 'terminal' || end.task.status !== 'cancelled') return waitForTask(ctx, first.task, first.form, false, follower);
  if (ctx.flags.json) ctx.emit({ form: first.form, task: end.task });
  else err(`Task ${ctx.label(id)} was cancelled${end.task.statusMessage ? `: ${end.task.statusMessage}` : ''}.`);
  return 0;
}

async function taskResult(ctx: ClientContext, id: string, strict: boolean): Promise<number> {
  const r = await ctx.session.getTask(id);
  if (r.type !== 'snapshot') return ctx.fail(ctx.errorOf(r));
  return waitForTask(ctx, r.task, r.form, strict);
}

async function taskList(ctx: ClientContext): Promise<number> {
  const r = await ctx.session.listTasks();
  if (r.type !== 'tasks') return ctx.fail(ctx.errorOf(r));
  if (ctx.flags.json) ctx.emit({ form: 'legacy', tasks: r.tasks });
  else
    out(
      r.tasks
        .map((t) => `${t.status.padEnd(15)} ${ctx.label(t.taskId)}  updated ${t.lastUpdatedAt}${t.statusMessage ? `  ${t.statusMessage}` : ''}`)
        .join('\n') || '(no tasks)',
    );
  return 0;
}

/** Register `mcp-loupe task …` on the program. */
export function registerClientTaskCommands(program: Command): void {
  const task = program.command('task').description('follow and steer tasks (tasks extension, or 2025-11-25 experimental tasks)');
  connectionOptions(taskIdArgument(task.command('get'), true).description('tasks/get: status, TTL, pending input, result')).action(
    (id: string, f: ConnectionFlags) =>
      runClientAction(
        f,
        taskAction((ctx) => taskGet(ctx, id)),
      ),
  );
  connectionOptions(
    taskIdArgument(task.command('update'), true)
      .description('tasks/update: answer pending input requests')
      .option('--input-responses <json>', 'answers keyed by input request'),
  ).action((id: string, f: ConnectionFlags & { inputResponses?: string }) =>
    runClientAction(
      f,
      taskAction((ctx) => taskUpdate(ctx, id, f.inputResponses)),
    ),
  );
  connectionOptions(
    taskIdArgument(task.command('cancel'), true)
      .description('tasks/cancel (the ack is not final)')
      .option('--wait', 'keep polling until the task reaches a terminal status'),
  ).action((id: string, f: ConnectionFlags & { wait?: boolean }) =>
    runClientAction(
      f,
      taskAction((ctx) => taskCancel(ctx, id, !!f.wait)),
    ),
  );
  connectionOptions(
    taskIdArgument(task.command('result'), true)
      .description('wait for the task to end and print its result')
      .option('--strict-errors', 'exit 1 when the result has isError: true'),
  ).action((id: string, f: ConnectionFlags & { strictErrors?: boolean }) =>
    runClientAction(
      f,
      taskAction((ctx) => taskResult(ctx, id, !!f.strictErrors)),
    ),
  );
  connectionOptions(task.command('list').description('tasks/list (2025-11-25 only)')).action((f: ConnectionFlags) =>
    runClientAction(f, taskAction(taskList, 'list')),
  );
}
