import type { Command } from 'commander';
import { answerWithStubs, capabilitiesForStubs, createHeadlessSession, type InputStubs } from '../client/headless';
import type { Frame } from '../client/frames';
import type { ClientSession } from '../client/session';
import type { FollowEnd, TaskFollower } from '../client/task-follower';
import type { ObservedTask } from '../client/task-api';
import type { InputRequests, InputResponses } from '../protocol';
import { eraOf, parseHeaders, stubsOf, timeoutOf, UsageError, type ConnectionFlags } from './client-args';
import { err, formatError, formatTask, formatToolResult, out, printJson, taskLabel } from './client-output';
import { writeSessionRecording } from './record-file';

/**
 * What every client command shares: the connection flags, a headless session built from
 * them, the stub answerers, following a task to its end with the client's exit codes, and the
 * `--record` hook.
 */

/** Add the connection flags to a command. */
export function connectionOptions(cmd: Command): Command {
  return cmd
    .requiredOption('--url <url>', 'the MCP endpoint, e.g. http://127.0.0.1:3001/mcp')
    .option('--header <header...>', 'extra request header "Name: value" (repeatable), e.g. "Authorization: Bearer …"')
    .option('--json', 'print JSON instead of text (task ids in full)')
    .option('--protocol-version <v>', 'protocol version (a 2025-* version selects the initialize handshake)')
    .option('--era <era>', 'modern (2026-07-28), legacy (2025-11-25) or auto (probe, then fall back)')
    .option('--timeout <ms>', 'absolute deadline for each request and for --wait', '60000')
    .option('--elicit-stub <json>', 'answer elicitation requests with this form content (or {"action":"decline"})')
    .option('--sampling-stub <text|json>', 'answer sampling requests with this text (or a CreateMessageResult)')
    .option('--roots-stub <json>', 'answer roots/list with these roots, e.g. [{"uri":"file:///work"}]')
    .option('--reveal-ids', 'show full task ids in human output (they may be bearer tokens)')
    .option('--listen', 'while waiting on a task, also subscribe to notifications/tasks')
    .option('--record [file]', 'record the session (appends to an existing recording; without FILE: .loupe/recordings/<time>.loupe.json)');
}

/** A client command's session, flags and stub answerers. */
export interface ClientContext {
  session: ClientSession;
  flags: ConnectionFlags;
  stubs: InputStubs;
  timeoutMs: number;
  /** Answers input requests with the stubs; undefined when a key has no stub. */
  answer: (requests: InputRequests) => Promise<InputResponses | undefined>;
  label: (taskId: string) => string;
  /** Write the --record file, if any. */
  finish(): void;
}

/** A client command's body: runs against the session, returns the exit code. */
export type ClientAction = (ctx: ClientContext) => Promise<number>;

/** Run an action with a session from the flags, mapping outcomes to exit codes (a usage mistake is 2). */
export async function runClientAction(flags: ConnectionFlags, action: ClientAction): Promise<void> {
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

/** Build the session for a command from its flags. */
function clientContext(flags: ConnectionFlags): ClientContext {
  const stubs = stubsOf(flags);
  const timeoutMs = timeoutOf(flags);
  const frames: Frame[] = [];
  let url: URL;
  try {
    url = new URL(flags.url);
  } catch {
    throw new UsageError(`--url "${flags.url}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must be http(s), not ${url.protocol}`);
  const session = createHeadlessSession({
    url: url.toString(),
    headers: parseHeaders(flags.header),
    era: eraOf(flags),
    protocolVersion: flags.protocolVersion,
    // Form elicitation is always answerable: by a stub, or later by hand with `task update`.
    capabilities: { elicitation: { form: {} }, ...capabilitiesForStubs(stubs) },
    clientInfo: { name: 'mcp-loupe', version: '0.1.0' },
    // Progress may reset the idle part; the --timeout maximum is never extended.
    timeoutMs: Math.min(timeoutMs, 30_000),
    maxTimeoutMs: timeoutMs,
    onWarning: (w) => err(`warning: ${w}`),
    ...(flags.record ? { onFrame: (f: Frame) => frames.push(f) } : {}),
  });
  return {
    session,
    flags,
    stubs,
    timeoutMs,
    async answer(requests) {
      const a = answerWithStubs(requests, stubs);
      return Object.keys(requests).every((k) => k in a) ? a : undefined;
    },
    label: (id) => taskLabel(id, !!flags.revealIds),
    finish() {
      if (!flags.record) return;
      const headers = parseHeaders(flags.header);
      const saved = writeSessionRecording(flags.record, frames, {
        target: url.toString(),
        transport: 'http',
        era: session.era ?? 'auto',
        protocolVersion: session.protocolVersion,
        clientInfo: { name: 'mcp-loupe', version: '0.1.0' },
        ...(session.server?.info ? { serverInfo: session.server.info } : {}),
        headers,
      });
      if (!saved.ok) {
        err(`mcp-loupe: ${saved.message}`);
        if (!process.exitCode) process.exitCode = 1;
        return;
      }
      err(
        saved.appended
          ? `recorded ${saved.frames} frames, appended to ${saved.file} (${saved.total} frames in all)`
          : `recorded ${saved.frames} frames to ${saved.file}`,
      );
    },
  };
}

/** Which input keys no stub answers, for the "needs input" message. */
export function describeInput(requests: InputRequests): string {
  return Object.entries(requests)
    .map(([k, r]) => `${k} (${r.method})${(r.params as { message?: string } | undefined)?.message ? `: ${(r.params as { message: string }).message}` : ''}`)
    .join('; ');
}

/** Print a completed tool result; returns the exit code (isError is a result unless strict). */
export function printToolResult(ctx: ClientContext, result: Record<string, unknown>, strict: boolean, json: unknown = result): number {
  if (ctx.flags.json) printJson(json);
  else out(`Tool response:\n${formatToolResult(result)}`);
  if (result.isError === true) {
    err(
      strict
        ? 'The tool returned an error result (isError: true); --strict-errors makes that exit 1.'
        : 'The tool returned an error result (isError: true). It is a result, not a failure; --strict-errors makes it exit 1.',
    );
    return strict ? 1 : 0;
  }
  return 0;
}

/** Follow a task to its end and report how it ended; returns the exit code (0 only for a completed task). */
export async function waitForTask(ctx: ClientContext, task: ObservedTask, form: string, strict: boolean, follower?: TaskFollower): Promise<number> {
  let last = `${task.status}|${task.statusMessage ?? ''}`;
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
  const end: FollowEnd = await f.done;
  const t = end.task;
  const name = ctx.label(t.taskId);
  switch (end.kind) {
    case 'terminal':
      if (t.status === 'completed') return printToolResult(ctx, t.result ?? {}, strict, { form, task: t });
      if (ctx.flags.json) printJson({ form, task: t });
      if (t.status === 'failed') err(`Task ${name} failed: ${t.error ? formatError(t.error) : (t.statusMessage ?? 'no error given')}`);
      else err(`Task ${name} was cancelled${t.statusMessage ? `: ${t.statusMessage}` : ''}.`);
      return 1;
    case 'expired':
      if (ctx.flags.json) printJson({ form, task: t });
      err(`Task ${name} is still ${t.status} after its TTL (created ${t.createdAt}, ttlMs ${t.ttlMs}); giving up on it.`);
      return 1;
    case 'timeout':
      if (ctx.flags.json) printJson({ form, task: t });
      err(
        `Task ${name} is still ${t.status} after --timeout ${ctx.timeoutMs} ms; it keeps running on the server. Raise --timeout for long tasks, or check later with \`mcp-loupe task get\`.`,
      );
      return 1;
    case 'needs-input':
      if (ctx.flags.json) printJson({ form, task: t });
      else out(formatTask(t, !!ctx.flags.revealIds));
      err(
        `Task ${name} waits for input: ${describeInput(t.inputRequests ?? {})}. Answer with --elicit-stub / --sampling-stub, or \`mcp-loupe task update ID --input-responses JSON\`.`,
      );
      return 1;
    case 'error':
      err(
        `Failed to follow task ${name}: ${end.outcome.type === 'error' ? formatError(end.outcome.error) : end.outcome.type === 'failure' ? end.outcome.message : end.outcome.type === 'invalid' ? end.outcome.reason : end.outcome.type}`,
      );
      return 1;
    case 'aborted':
      err(`Stopped following task ${name}.`);
      return 1;
  }
}
