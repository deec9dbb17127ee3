import type { FollowEnd, TaskFollower } from '../client/task-follower';
import type { ObservedTask } from '../client/task-api';
import type { InputRequests } from '../protocol';
import type { ClientContext } from './client-context';
import { err, formatError, formatTask, formatToolResult, out } from './client-output';

/**
 * How the client commands end on a result: a tool result (isError is a result unless
 * --strict-errors) or a task followed to its end, each with its exit code and, with --json,
 * its one document (the failed task beside the `error` when it did not complete).
 */

/** Which input keys no stub answers, for the "needs input" message. */
function describeInput(requests: InputRequests): string {
  return Object.entries(requests)
    .map(([k, r]) => `${k} (${r.method})${(r.params as { message?: string } | undefined)?.message ? `: ${(r.params as { message: string }).message}` : ''}`)
    .join('; ');
}

/**
 * {@link describeInput} as the end of a sentence: a server's message usually ends in its own
 * full stop, and a second one made "This cannot be undone.." (demo's delete_note).
 */
export function describeInputSentence(requests: InputRequests): string {
  const text = describeInput(requests);
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/**
 * Print a completed tool result; returns the exit code (isError is a result unless strict).
 * `doc` is what --json prints: the result itself, or the task that produced it.
 */
export function printToolResult(ctx: ClientContext, result: Record<string, unknown>, strict: boolean, doc: Record<string, unknown> = result): number {
  // CallToolResult requires content: a result without it is the server's fault, not an empty answer.
  if (!Array.isArray(result.content)) {
    const got = result.content === undefined ? 'none' : JSON.stringify(result.content).slice(0, 80);
    return ctx.fail({ code: 'invalid-response', message: `Invalid response: the tool result has no content array (content: ${got})` }, doc);
  }
  if (ctx.flags.json) ctx.emit(doc);
  else out(`Tool response:\n${formatToolResult(result)}`);
  if (result.isError !== true) return 0;
  if (strict) return ctx.fail({ code: 'tool-error', message: 'The tool returned an error result (isError: true); --strict-errors makes that exit 1.' }, doc);
  err('The tool returned an error result (isError: true). It is a result, not a failure; --strict-errors makes it exit 1.');
  return 0;
}

/** Follow a task to its end and report how it ended; returns the exit code (0 only for a completed task). */
export async function waitForTask(ctx: ClientContext, task: ObservedTask, form: string, strict: boolean, follower?: TaskFollower): Promise<number> {
  let last = `${task.status}|${task.statusMessage ?? ''}`;
  // The status the task was created with is the first line of its story (e.g. "Drafting outline…").
  if (!ctx.flags.json && !follower && task.statusMessage) err(`task ${ctx.label(task.taskId)}: ${task.status} — ${task.statusMessage}`);
  const f =
    follower ??
    ctx.session.followTask(task, {
      answer: (reqs) => ctx.answer(reqs),
      onUnanswered: 'stop',
      listen: !!ctx.flags.listen,
      waitMs: ctx.timeoutMs,
      onUpdate: (t) => {
        const now = `${t.status}|${t.statusMessage ?? ''}`;
        if (now !== last && !ctx.flags.json) err(`task ${ctx.label(t.taskId)}: ${t.status}${t.statusMessage ? ` — ${t.statusMessage}` : ''}`);
        last = now;
      },
    });
  // Ctrl-C stops the waiting, not the task: say so, and how to find the task again.
  let interrupted = false;
  const onInterrupt = () => {
    interrupted = true;
    f.stop();
  };
  process.once('SIGINT', onInterrupt);
  const end: FollowEnd = await f.done.finally(() => process.off('SIGINT', onInterrupt));
  const t = end.task;
  const name = ctx.label(t.taskId);
  const doc = { form, task: t };
  switch (end.kind) {
    case 'terminal':
      if (t.status === 'completed')
        return t.result
          ? printToolResult(ctx, t.result, strict, doc)
          : ctx.fail({ code: 'invalid-response', message: `Invalid response: task ${name} completed, but the server gave no result for it` }, doc);
      if (t.status === 'failed')
        return ctx.fail(
          { code: 'task-failed', message: `Task ${name} failed: ${t.error ? formatError(t.error) : (t.statusMessage ?? 'no error given')}` },
          doc,
        );
      return ctx.fail({ code: 'task-cancelled', message: `Task ${name} was cancelled${t.statusMessage ? `: ${t.statusMessage}` : ''}.` }, doc);
    case 'expired':
      return ctx.fail(
        { code: 'task-expired', message: `Task ${name} is still ${t.status} after its TTL (created ${t.createdAt}, ttlMs ${t.ttlMs}); giving up on it.` },
        doc,
      );
    case 'timeout':
      return ctx.fail(
        {
          code: 'timeout',
          message: `Task ${name} is still ${t.status} after --timeout ${ctx.timeoutMs} ms; it keeps running on the server. Raise --timeout for long tasks, or check later with \`mcp-loupe task get\`.`,
        },
        doc,
      );
    case 'needs-input':
      if (!ctx.flags.json) out(formatTask(t, !!ctx.flags.revealIds));
      return ctx.fail(
        {
          code: 'needs-input',
          message: `Task ${name} waits for input: ${describeInputSentence(t.inputRequests ?? {})} Answer with --elicit-stub / --sampling-stub, or \`mcp-loupe task update ID --input-responses JSON\`.`,
        },
        doc,
      );
    case 'error': {
      const e = ctx.errorOf(end.outcome);
      if (end.method === 'tasks/update')
        return ctx.fail({ ...e, message: `The server refused the answers to task ${name} (tasks/update): ${e.message}. They were not sent again.` }, doc);
      return ctx.fail({ ...e, message: `Failed to follow task ${name}: ${e.message}` }, doc);
    }
    case 'aborted':
      if (!interrupted) return ctx.fail({ code: 'failed', message: `Stopped following task ${name}.` }, doc);
      ctx.fail(
        {
          code: 'failed',
          message: `Stopped waiting for task ${name} (interrupted); it keeps running on the server. Follow it with \`mcp-loupe task get ${ctx.flags.revealIds ? t.taskId : '<task-id>'}\`${ctx.flags.revealIds || ctx.flags.json ? '' : ' (--reveal-ids or --json prints the id)'}, or cancel it with \`mcp-loupe task cancel\`.`,
        },
        doc,
      );
      // The shell's convention for a command ended by Ctrl-C.
      return 130;
  }
}
