import type { Command } from 'commander';
import { answerWithStubs, capabilitiesForStubs, createHeadlessSession, stubAnswerer, type InputStubs } from '../client/headless';
import type { Frame } from '../client/frames';
import type { ClientSession } from '../client/session';
import type { RequestOutcome } from '../client/results';
import type { InputRequests, InputResponses } from '../protocol';
import { authOf, tokenHeader } from './client-auth';
import { eraOf, logLevelOf, ownWords, parseHeaders, stdioTarget, stubsOf, timeoutOf, type ConnectionFlags } from './client-args';
import { err, errorOfOutcome, formatServerLog, printJson, taskLabel } from './client-output';
import { CliFailure, exitCodeOf, reportError, UsageError, type CliError } from './errors';
import { createStdioTransport } from './stdio-transport';
import { parseHttpUrl, trackedFetch } from './network';
import { checkRecordTarget, writeSessionRecording } from './record-file';
import { VERSION } from './version';
import { printable } from './terminal';

/**
 * What every client command shares: the connection flags, a headless session built from
 * them, the stub answerers, following a task to its end with the client's exit codes, and the
 * `--record` hook.
 */

/** Add the connection flags to a command. */
export function connectionOptions(cmd: Command): Command {
  return (
    cmd
      .option('--url <url>', 'the MCP endpoint, e.g. http://127.0.0.1:3001/mcp (or a stdio server after --: -- node server.js)')
      // The words after `--` are the stdio server's command line (stdioTarget), not the command's;
      // any other extra word is still a usage mistake.
      .allowExcessArguments(true)
      .hook('preAction', (_program, action) => {
        const declared = action.registeredArguments;
        const own = ownWords(action.args);
        if (!declared.some((a) => a.variadic) && own.length > declared.length)
          throw new UsageError(`too many arguments for '${action.name()}': "${own[declared.length]}" (a stdio server's command goes after --)`);
      })
      .option('--header <header...>', 'extra request header "Name: value" (repeatable), e.g. "Authorization: Bearer …"')
      .option('--json', 'print JSON instead of text (task ids in full)')
      .option('--protocol-version <v>', 'protocol version (a 2025-* version selects the initialize handshake)')
      .option('--era <era>', 'modern (2026-07-28), legacy (2025-11-25) or auto (probe, then fall back)')
      .option('--timeout <ms>', 'absolute deadline for each request and for --wait', '60000')
      .option('--elicit-stub <json>', 'answer elicitation requests with this form content (or {"action":"decline"})')
      .option('--elicit-url <action>', 'answer URL-mode elicitations with accept, decline or cancel (declares elicitation.url; the URL is printed, not opened)')
      .option('--sampling-stub <text|json>', 'answer sampling requests with this text (or a CreateMessageResult)')
      .option('--roots-stub <json>', 'answer roots/list with these roots, e.g. [{"uri":"file:///work"}]')
      .option('--reveal-ids', 'show full task ids in human output (they may be bearer tokens)')
      .option('--listen', 'while waiting on a task, also subscribe to notifications/tasks')
      .option('--auth', 'authorize with OAuth when the server asks (prints the authorize URL; the redirect lands on a loopback listener)')
      .option('--client-id <id>', 'a pre-registered OAuth client id (with --client-secret and no --auth: client credentials)')
      .option('--client-secret <secret>', 'the pre-registered client secret')
      .option('--scope <scopes>', "OAuth scopes to ask for (default: the server's challenge, else its scopes_supported)")
      .option('--token <token>', 'a ready OAuth bearer token (kept in memory, never recorded)')
      .option(
        '--client-metadata-url <url>',
        "the URL of this client's Client ID Metadata Document (https, or loopback for local tests), used where the server supports CIMD",
      )
      .option('--store-tokens <file>', 'keep the OAuth tokens in FILE (mode 0600) and reuse them next run, refreshed when expired')
      .option('--log-level <level>', "ask the server for logs from this level up (debug … emergency) and print them on stderr ('log info: …')")
      .option('--record [file]', 'record the session (appends to an existing recording; without FILE: .loupe/recordings/<time>.loupe.json)')
      .option('--no-redact', 'with --record: keep Authorization values, tokens, keys and task ids in the recording as sent')
  );
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
  /** The command's answer with --json: printed once the command ends (and its --record is written). */
  emit(doc: Record<string, unknown>): void;
  /**
   * Report a failure: a line on stderr, or with --json the one document on stdout, `data`
   * beside `error`. Returns the exit code (2 for usage, else 1).
   */
  fail(error: CliError, data?: Record<string, unknown>): number;
  /** A request that got no result, as an error to report (a server that cannot be reached says so). */
  errorOf(outcome: RequestOutcome): CliError;
  /** Write the --record file, if any, then the --json document. */
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
    // Reported here, not by the program, so that --json still prints one document.
    const error: CliError = e instanceof CliFailure ? { code: e.code, message: e.message } : { code: 'failed', message: (e as Error).message };
    process.exitCode = ctx ? ctx.fail(error) : reportError(error, !!flags.json);
  } finally {
    ctx?.finish();
  }
}

/** Write the session's --record file; a write that fails is an outcome, not a throw. */
function recordSession(file: string | true, frames: Frame[], session: ClientSession, target: string, headers: Record<string, string>, redact: boolean) {
  try {
    return writeSessionRecording(
      file,
      frames,
      {
        target,
        transport: session.connection.transport.kind === 'stdio' ? 'stdio' : 'http',
        era: session.era ?? 'auto',
        protocolVersion: session.protocolVersion,
        clientInfo: { name: 'mcp-loupe', version: VERSION },
        ...(session.server?.info ? { serverInfo: session.server.info } : {}),
        headers,
      },
      redact,
    );
  } catch (e) {
    return { ok: false as const, message: `Cannot write the recording: ${(e as Error).message}` };
  }
}

/** A URL-mode elicitation --elicit-url answers: its URL is printed, so a person can open it (the CLI never does). */
function tellUrlElicitations(requests: InputRequests, stubs: InputStubs): void {
  if (!stubs.elicitUrl) return;
  for (const r of Object.values(requests)) {
    const p = r.params as { mode?: unknown; url?: unknown; message?: unknown } | undefined;
    if (r.method === 'elicitation/create' && p?.mode === 'url')
      err(printable(`elicitation (url): ${String(p.message ?? '')} ${String(p.url ?? '')} → ${stubs.elicitUrl}`));
  }
}

/** Build the session for a command from its flags. */
function clientContext(flags: ConnectionFlags): ClientContext {
  const stubs = stubsOf(flags);
  const timeoutMs = timeoutOf(flags);
  const frames: Frame[] = [];
  const stdio = stdioTarget();
  if (flags.url !== undefined && stdio.length) throw new UsageError('give --url or a stdio server after --, not both');
  if (flags.url === undefined && !stdio.length) throw new UsageError('no server: give --url URL, or a stdio server after -- (e.g. -- node server.js)');
  const [program, ...programArgs] = stdio;
  const transport = program !== undefined ? createStdioTransport(program, programArgs) : undefined;
  const target = transport ? transport.target : parseHttpUrl(flags.url ?? '').toString();
  const headers = parseHeaders(flags.header);
  if (transport && Object.keys(headers).length) throw new UsageError('--header goes with --url (a stdio server gets no HTTP headers)');
  if (transport && (flags.auth || flags.token || flags.clientId))
    throw new UsageError('authorization flags go with --url (a stdio server takes credentials from its environment)');
  if (typeof flags.record === 'string') checkRecordTarget(flags.record);
  const net = trackedFetch();
  const oauth = authOf(flags, timeoutMs, net.fetch);
  const json = !!flags.json;
  const logLevel = logLevelOf(flags);
  let doc: Record<string, unknown> | undefined;
  let failure: { error: CliError; data: Record<string, unknown> } | undefined;
  const session = createHeadlessSession({
    ...(transport ? { transport } : { url: target }),
    // The bearer of --token goes on the wire, not into the recording's connection headers.
    headers: { ...headers, ...tokenHeader(flags, headers) },
    ...(oauth.auth ? { auth: oauth.auth } : {}),
    era: eraOf(flags),
    protocolVersion: flags.protocolVersion,
    // Form elicitation is always answerable: by a stub, or later by hand with `task update`.
    capabilities: { ...capabilitiesForStubs(stubs), elicitation: { form: {}, ...capabilitiesForStubs(stubs).elicitation } },
    clientInfo: { name: 'mcp-loupe', version: VERSION },
    // Progress may reset the idle part; the --timeout maximum is never extended.
    timeoutMs: Math.min(timeoutMs, 30_000),
    maxTimeoutMs: timeoutMs,
    onWarning: (w) => err(`warning: ${w}`),
    ...(logLevel ? { logLevel } : {}),
    // The server's logs go to stderr as they come (a 2025-11-25 server may send them unasked).
    onNotification: (n) => {
      if (!json && n.method === 'notifications/message') err(formatServerLog(n.params));
    },
    // 2025-11-25: the server's own requests on a stream get the same stub answers as MRTR input.
    onServerRequest: (method, params) => {
      if (!json) tellUrlElicitations({ q: { method, params: params ?? {} } } as InputRequests, stubs);
      return stubAnswerer(stubs)(method, params);
    },
    fetch: net.fetch,
    ...(flags.record ? { onFrame: (f: Frame) => frames.push(f) } : {}),
  });
  const fail = (error: CliError, data: Record<string, unknown> = {}): number => {
    if (json) failure ??= { error, data };
    else err(`mcp-loupe: ${error.message}`);
    return exitCodeOf(error);
  };
  return {
    session,
    flags,
    stubs,
    timeoutMs,
    async answer(requests) {
      if (!json) tellUrlElicitations(requests, stubs);
      const a = answerWithStubs(requests, stubs);
      return Object.keys(requests).every((k) => k in a) ? a : undefined;
    },
    label: (id) => taskLabel(id, !!flags.revealIds),
    emit: (value) => {
      doc = value;
    },
    fail,
    errorOf: (outcome) => errorOfOutcome(outcome, target, net.lastFailure()),
    finish() {
      session.close();
      oauth.close();
      void transport?.close?.();
      if (flags.record) {
        const saved = recordSession(flags.record, frames, session, target, headers, flags.redact !== false);
        if (!saved.ok) {
          const code = fail({ code: 'failed', message: saved.message }, doc);
          if (!process.exitCode) process.exitCode = code;
        } else
          err(
            saved.appended
              ? `recorded ${saved.frames} frames, appended to ${saved.file} (${saved.total} frames in all)`
              : `recorded ${saved.frames} frames to ${saved.file}`,
          );
      }
      if (!json) return;
      if (failure) printJson({ ...failure.data, error: failure.error });
      else if (doc) printJson(doc);
    },
  };
}
