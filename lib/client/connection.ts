import { ERROR, LEGACY_VERSION, LEGACY_VERSIONS, MODERN_VERSION, type Implementation } from '../protocol';
import { createSystemClock, sleep } from '../shared/clock';
import { sendRequest } from './connection-send';
import { buildNotification, legacyHeaders, type Era } from './request-builder';
import { classifyResult, classifyRetry, describeOutcome, type RequestOutcome } from './results';
import type { Connection, ConnectionOptions, RequestOptions } from './connection-types';
import { retryDelayMs } from './reconnect';
import { BUSY_RETRIES, busyWait, isBusyStatus, MAX_RETRY_AFTER_MS } from './retry-after';
import { openServerStream, type ServerStream } from './server-requests';
import { afterRenewal, createSessionRenewal } from './session-renewal';
import {
  authorizationRequired,
  isLegacyVersion,
  legacyCapabilities,
  modernVersionFrom,
  negotiatedVersion,
  probeVerdict,
  serverFromDiscover,
} from './version-negotiation';

/**
 * The connection-level core of the client: era (modern 2026-07-28, legacy 2025-11-25, or
 * detected), version negotiation (a -32022 is retried once with a mutually supported
 * version), request ids, per-request `_meta` and headers, deadlines, and the rule that a
 * request that was in flight when the connection dropped is re-sent only when that is safe.
 * Higher-level operations (tools, MRTR, tasks, listen) live in their own modules and use
 * `request`; reading the handshake answers is version-negotiation.ts, and putting one attempt
 * on the wire is connection-send.ts.
 */

const DEFAULT_CLIENT: Implementation = { name: 'mcp-loupe', version: '0.1.0' };

/** Create the connection core over a transport. */
export function createConnection(options: ConnectionOptions): Connection {
  // Timers stay referenced: a script awaiting a poll or a backoff must not see Node exit under it.
  const clock = options.clock ?? createSystemClock();
  const supported = options.supportedVersions ?? [MODERN_VERSION, ...LEGACY_VERSIONS];
  const caps = options.capabilities ?? {};
  const clientInfo = options.clientInfo ?? DEFAULT_CLIENT;
  const warn = (t: string) => options.onWarning?.(t);
  let era: Era | undefined = options.era === 'modern' ? 'modern' : undefined;
  let version = options.protocolVersion ?? (options.era === 'legacy' ? LEGACY_VERSION : MODERN_VERSION);
  let sessionId: string | undefined;
  let server: Connection['server'];
  let nextId = 1;
  let reached = false; // the server answered at least once (any HTTP status): only then are dropped requests re-sent
  let connecting: Promise<RequestOutcome> | undefined;
  let standalone: ServerStream | undefined;
  const pending = new Set<{ method: string; safe: boolean }>();
  const closer = new AbortController();
  const closedOutcome: RequestOutcome = { type: 'failure', reason: 'aborted', message: 'disconnected' };
  const withClose = (signal: AbortSignal | undefined) => (signal ? AbortSignal.any([signal, closer.signal]) : closer.signal);

  const renewal = createSessionRenewal({
    current: () => sessionId,
    forget: () => {
      standalone?.close();
      standalone = undefined;
      sessionId = undefined;
    },
    initialize: () => initialize(closer.signal),
    warn,
  });

  const send = (method: string, params: Record<string, unknown> | undefined, o: RequestOptions, asEra: Era) =>
    sendRequest({ options, clock, clientInfo, warn, version, sessionId }, nextId++, method, params, o, asEra);

  async function request(method: string, params: Record<string, unknown> | undefined = undefined, given: RequestOptions = {}): Promise<RequestOutcome> {
    // After close nothing reaches the wire: not a poll, not a listen re-open, not a retry.
    if (closer.signal.aborted) return closedOutcome;
    const o = { ...given, signal: withClose(given.signal) };
    if (!era && method !== 'initialize') {
      const first = !connecting;
      const c = await connect(o.signal);
      if (!era) return c.type === 'failure' ? c : { type: 'failure', reason: 'local', message: `Failed to connect: ${describeOutcome(c)}` };
      // The probe was this very request: do not send server/discover twice. On a legacy server
      // the initialize handshake it fell back to is the answer (server/discover does not exist there).
      if (first && method === 'server/discover') return c;
    }
    const entry = { method, safe: (o.retry ?? classifyRetry(method)) === 'safe' };
    pending.add(entry);
    try {
      if (closer.signal.aborted) return closedOutcome;
      return await requestAs(method, params, o, era ?? 'legacy');
    } finally {
      pending.delete(entry);
    }
  }

  async function requestAs(method: string, params: Record<string, unknown> | undefined, o: RequestOptions, asEra: Era): Promise<RequestOutcome> {
    let negotiated = false;
    let busy = 0;
    // Re-sends after a dropped connection; busy answers count on their own.
    let resent = 0;
    let renewed = false;
    for (;;) {
      if (asEra === 'legacy' && method !== 'initialize') await renewal.underway();
      const carried = sessionId;
      const { ex, declaredTasks } = await send(method, params, o, asEra);
      // 2025-11-25 transports: a 404 to a request carrying Mcp-Session-Id means the server no longer
      // knows the session (it restarted, or ended it); the client MUST start a new one with initialize.
      if (ex.status === 404 && carried !== undefined && asEra === 'legacy' && method !== 'initialize' && !renewed) {
        renewed = true;
        const ended = afterRenewal(await renewal.renew(carried), method, (o.retry ?? classifyRetry(method)) === 'safe');
        if (ended) return ended;
        continue;
      }
      if (ex.status !== undefined || ex.response) reached = true;
      // 429/503: the request was not processed; come back when Retry-After says, a few times.
      if (isBusyStatus(ex.status) && !(ex.response && 'result' in ex.response) && o.retry !== 'never') {
        const next = busyWait(
          { method, status: ex.status, retryAfter: ex.headers?.['retry-after'], attempt: busy++, target: options.transport.target },
          clock.now(),
          {
            retries: options.busyRetries ?? BUSY_RETRIES,
            maxWaitMs: options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS,
          },
        );
        if ('giveUp' in next) return { type: 'failure', reason: 'busy', message: next.giveUp };
        options.onBusy?.(next);
        if (!(await sleep(clock, next.delayMs, o.signal).done)) return { type: 'failure', reason: 'aborted', message: 'cancelled by the client' };
        continue;
      }
      if (asEra === 'legacy' && ex.headers?.['mcp-session-id'] && method === 'initialize') sessionId = ex.headers['mcp-session-id'];
      const res = ex.response;
      if (res && 'error' in res) {
        if (res.error.code === ERROR.unsupportedProtocolVersion && asEra === 'modern' && !negotiated) {
          const next = negotiatedVersion(res.error.data, supported);
          if (next && !isLegacyVersion(next)) {
            negotiated = true;
            version = next;
            continue;
          }
        }
        return { type: 'error', error: res.error, ...(ex.status !== undefined ? { httpStatus: ex.status } : {}) };
      }
      if (res && 'result' in res) {
        const out = classifyResult(res.result, { method, declaredTasks, era: asEra });
        if (method === 'server/discover' && out.type === 'complete') server = serverFromDiscover(out.result);
        return out;
      }
      if (!ex.failure) {
        const body = ex.rawBody ? `: ${ex.rawBody.slice(0, 200)}` : '';
        return {
          type: 'invalid',
          reason: `HTTP ${ex.status ?? '?'} without a JSON-RPC response${ex.parseError ? ` (not usable JSON: ${ex.parseError})` : ''}${body}`,
          ...(ex.status !== undefined ? { httpStatus: ex.status } : {}),
        };
      }
      const f = ex.failure;
      if (f.reason !== 'network' && f.reason !== 'dropped') return { type: 'failure', reason: f.reason, message: f.message };
      const safety = o.retry ?? classifyRetry(method);
      // A server never reached is said so at once, not after silent retries.
      if (safety === 'safe' && resent < 2 && reached) {
        const wait = sleep(clock, retryDelayMs(resent++), o.signal);
        if (!(await wait.done)) return { type: 'failure', reason: 'aborted', message: 'cancelled by the client' };
        continue;
      }
      if (safety === 'unsafe')
        return { type: 'failure', reason: 'unsafe-not-retried', message: `${f.message}; ${method} may already have taken effect, so it was not re-sent` };
      return { type: 'failure', reason: f.reason, message: f.message };
    }
  }

  async function initialize(signal?: AbortSignal): Promise<RequestOutcome> {
    const init = await requestAs('initialize', { protocolVersion: version, capabilities: legacyCapabilities(caps), clientInfo }, { signal }, 'legacy');
    if (init.type !== 'complete') return init;
    const r = init.result as { protocolVersion?: string; serverInfo?: Implementation; capabilities?: Record<string, unknown>; instructions?: string };
    if (typeof r.protocolVersion === 'string') {
      if (!supported.includes(r.protocolVersion))
        return { type: 'invalid', reason: `the server chose protocol ${r.protocolVersion}, which this client does not speak`, result: r };
      version = r.protocolVersion;
    }
    era = 'legacy';
    server = { info: r.serverInfo, capabilities: r.capabilities, instructions: r.instructions, supportedVersions: [version] };
    const note = buildNotification('notifications/initialized', undefined, 'legacy', version, sessionId);
    for await (const _ of options.transport.send(note.message, { headers: note.headers, signal })) void _;
    // 2025-11-25 HTTP: the session's GET stream, where servers send requests not tied to one of ours.
    const opened = sessionId;
    const hooks = { ...options, onSessionGone: () => void (opened !== undefined && renewal.renew(opened)) };
    if (options.serverStream) standalone = openServerStream(options.transport, legacyHeaders(undefined, version, sessionId), hooks, warn, clock);
    await standalone?.ready;
    return init;
  }

  /** The handshake; an auto client that guessed a 2025-era version falls forward when the server names a modern one. */
  async function handshake(signal?: AbortSignal): Promise<RequestOutcome> {
    const init = await initialize(signal);
    const forward =
      options.era === 'auto' && init.type === 'error' && init.error.code === ERROR.unsupportedProtocolVersion && modernVersionFrom(init.error.data, supported);
    if (!forward) return authorizationRequired(init, options.transport.target) ?? init;
    warn(`initialize was refused with -32022 naming ${forward}; speaking the 2026-07-28 era`);
    version = forward;
    return probe(signal);
  }

  async function probe(signal?: AbortSignal): Promise<RequestOutcome> {
    const out = await requestAs('server/discover', undefined, { signal }, 'modern');
    const verdict = probeVerdict(out, supported);
    if (verdict.era === 'auth') return authorizationRequired(out, options.transport.target) ?? out;
    if (verdict.era === 'failed') return out;
    if (verdict.era === 'modern') {
      era = 'modern';
      return out;
    }
    if (!verdict.version && !verdict.expected) warn(`server/discover was not understood (${verdict.reason}); falling back to the 2025-11-25 handshake`);
    server = undefined;
    version = verdict.version ?? LEGACY_VERSION;
    return initialize(signal);
  }

  function connect(given?: AbortSignal): Promise<RequestOutcome> {
    if (closer.signal.aborted) return Promise.resolve(closedOutcome);
    if (era === 'modern' && !connecting) return Promise.resolve({ type: 'complete', result: {} });
    const signal = withClose(given);
    // A 2025-era version is spoken only through initialize: an auto client never stamps it on a modern probe.
    const start = options.era === 'legacy' || isLegacyVersion(version) ? handshake : probe;
    connecting ??= start(signal).then((o) => {
      if (!era) connecting = undefined;
      return o;
    });
    return connecting;
  }

  return {
    transport: options.transport,
    clock,
    get era() {
      return era;
    },
    get protocolVersion() {
      return version;
    },
    capabilities: caps,
    get server() {
      return server;
    },
    connect,
    request,
    inFlight: () => [...pending].filter((p) => p.method !== 'subscriptions/listen'),
    warn,
    signal: closer.signal,
    async close() {
      if (closer.signal.aborted) return;
      closer.abort(new Error('disconnected'));
      standalone?.close();
      await options.transport.close?.();
    },
  };
}
