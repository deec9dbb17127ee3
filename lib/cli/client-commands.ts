import { asRecord } from '../shared/records';
import type { Command } from 'commander';
import { ERROR, EXT } from '../protocol';
import type { ObservedTask } from '../client/task-api';
import { ownWords, stdioTarget, toolArguments, type ConnectionFlags } from './client-args';
import { connectionOptions, runClientAction, type ClientContext } from './client-context';
import { err, formatDiscover, formatFailure, formatTools, out } from './client-output';
import { describeInputSentence, printToolResult, waitForTask } from './client-results';
import { UsageError } from './errors';

/**
 * The headless client: `mcp-loupe discover | tools | call TOOL` (the `task` commands are in
 * client-task-commands.ts).
 * Exit codes: 0 done (a tool's isError result included, unless --strict-errors), 1 a failure
 * (JSON-RPC error, failed or cancelled task, TTL expiry, --timeout, unreachable server),
 * 2 a usage mistake; with --json, failures are JSON too (errors.ts).
 */

async function discover(ctx: ClientContext): Promise<number> {
  const s = ctx.session;
  const c = await s.connect();
  let shown = c;
  if (s.era === 'modern' && !(c.type === 'complete' && 'supportedVersions' in c.result)) shown = await s.discover();
  if (shown.type !== 'complete') return ctx.fail(ctx.errorOf(shown));
  if (ctx.flags.json) ctx.emit(shown.result);
  else out(formatDiscover(shown.result, s.era, s.protocolVersion));
  return 0;
}

async function tools(ctx: ClientContext): Promise<number> {
  const list = await ctx.session.listTools();
  if (list.outcome.type !== 'complete') return ctx.fail(ctx.errorOf(list.outcome));
  if (ctx.flags.json) ctx.emit({ tools: list.tools, dropped: list.dropped });
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
  if (listed.outcome.type !== 'complete') {
    const e = ctx.errorOf(listed.outcome);
    // Nothing was reached, so the call would not be either: say that, not tools/call's retry rules.
    if (e.code === 'unreachable') return ctx.fail(e);
    err(`warning: tools/list failed (${formatFailure(listed.outcome)}); arguments are not checked against the schema`);
  }
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
      if (flags.json) ctx.emit({ form: outcome.form, task });
      else {
        out(`Task ${ctx.label(task.taskId)} created: ${task.status}${task.statusMessage ? ` — ${task.statusMessage}` : ''}`);
        const id = flags.revealIds ? task.taskId : '<task-id>';
        out(`Poll:   mcp-loupe task get ${id} ${flags.url ? `--url ${flags.url}` : `-- ${stdioTarget().join(' ')}`}`);
        if (!flags.revealIds) out('The task id can act as a bearer token; it is printed with --json or --reveal-ids.');
      }
      return 0;
    }
    case 'abandoned':
      return ctx.fail({
        code: 'needs-input',
        message: `The server needs input before ${name} can run: ${describeInputSentence(outcome.inputRequests)} Answer with --elicit-stub / --sampling-stub / --roots-stub.`,
      });
    case 'error': {
      const e = ctx.errorOf(outcome);
      if (outcome.error.code === ERROR.missingRequiredClientCapability && !flags.task && JSON.stringify(outcome.error.data ?? {}).includes(EXT.tasks))
        e.message += `\n${name} runs only as a task: add --task (declares the ${EXT.tasks} extension on this call).`;
      const needed = asRecord(asRecord(outcome.error.data)?.requiredCapabilities);
      const stubFor: Record<string, string> = { sampling: '--sampling-stub', roots: '--roots-stub' };
      if (outcome.error.code === ERROR.missingRequiredClientCapability && needed) {
        const flagsFor = Object.keys(needed).map((k) =>
          k === 'elicitation' ? (asRecord(needed.elicitation)?.url ? '--elicit-url' : '--elicit-stub') : stubFor[k],
        );
        const named = [...new Set(flagsFor.filter((f): f is string => !!f))];
        if (named.length) e.message += `\nThe server asks for a capability this client declares only with ${named.join(' and ')}.`;
      }
      return ctx.fail(e);
    }
    default:
      return ctx.fail(ctx.errorOf(outcome));
  }
}

/** Register `discover`, `tools` and `call` on the program. */
export function registerClientCommands(program: Command): void {
  connectionOptions(program.command('discover').description('server/discover (or the 2025-11-25 handshake): identity, versions, capabilities')).action(
    (f: ConnectionFlags) => runClientAction(f, discover),
  );
  connectionOptions(program.command('tools').description('tools/list, with tools whose x-mcp-header annotations are invalid dropped')).action(
    (f: ConnectionFlags) => runClientAction(f, tools),
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
  ).action((tool: string, words: string[], f: CallFlags) =>
    runClientAction(f, (ctx) => {
      // `call -- node server.js` would take the server's command for the tool's name.
      if (!ownWords([tool, ...words]).length) throw new UsageError('call needs a TOOL name before --');
      return call(ctx, tool, ownWords(words), f);
    }),
  );
}
