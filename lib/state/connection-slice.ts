import { coalesced } from '../shared/coalesced';
import type { TransportRoute } from '../client/auto-transport';
import { createInteractiveAnswerer } from '../client/interactive-answerer';
import { splitCommandLine } from '../client/stdio-proxy-transport';
import { describeOutcome, type RequestOutcome } from '../client/results';
import { describeBusyWait, type BusyWait } from '../client/retry-after';
import type { Era } from '../client/request-builder';
import { createClientSession, type ClientSession } from '../client/session';
import { createTrackingTransport, type TrackedTransport } from '../client/tracking';
import type { Implementation, Tool } from '../protocol';
import { INSPECTOR_CAPABILITIES, withoutApps } from './inspector-capabilities';
import type { InspectorStoreOptions } from './inspector-store';
import type { SliceGet, SliceSet } from './slice';
import type { ServerRequestsSlice } from './server-requests-slice';
import type { TimelineSlice } from './timeline-slice';
import { explainConnectFailure, urlProblem, type ConnectProblem } from './connection-errors';
import { stdioOutputHandler } from './connection-stdio';
import type { ServerOutputSlice } from './server-output-slice';
import { configTransport, pageOrigin } from './connection-transport';
import type { AuthSlice } from './auth-slice';
import { authorizedTransport } from './connection-auth';
import { DEFAULT_CONFIG, type ConnectionConfig } from './connection-config';
import { changedList, NO_LIST_CHANGES, watchListChanges, type ChangingList, type ListChanges } from './list-changes';

export { absoluteUrl, configHeaders } from './connection-transport';
export type { ConnectionConfig, ConnectionMode, HeaderRow } from './connection-config';

/**
 * The connection slice: what to connect to (URL, direct or through Loupe's proxy, headers and
 * bearer token, era), the live client session, and what the server said about itself. The
 * session's transport is wrapped by the tracking decorator, whose frames go to the timeline,
 * so anything a panel does through `session` shows up there.
 */

type ConnectionStatus = 'idle' | 'connecting' | 'connected' | 'error';

interface ServerSummary {
  info?: Implementation;
  capabilities?: Record<string, unknown>;
  supportedVersions?: string[];
  instructions?: string;
  protocolVersion: string;
  era?: Era;
}

interface ConnectionState {
  config: ConnectionConfig;
  status: ConnectionStatus;
  /** Why the last connect failed (the cause). */
  error?: string;
  /** The last failed connect, explained: its cause and the fix. */
  problem?: ConnectProblem;
  /** Which way an HTTP connection goes (direct or the proxy) and why; auto says once it knows. */
  route?: TransportRoute;
  /** A busy server (429/503) is being waited for: what the user reads, and when the retry goes out. */
  busy?: { text: string; until: number };
  server?: ServerSummary;
  /** Tools from the last tools/list (invalid ones dropped by the client). */
  tools: Tool[];
  /** The prompts' and resources' list_changed notices since this connection began (their panels list again). */
  listChanges: ListChanges;
  /** Client warnings (dropped tools, era fallback...), newest last, at most 50. */
  warnings: string[];
  /** Grows on every connect; effects that use `session` should depend on it. */
  epoch: number;
  session?: ClientSession;
  transport?: TrackedTransport;
  setConfig(patch: Partial<ConnectionConfig>): void;
  /** Disconnect if needed, then connect with the config (patched): server/discover, tools/list. */
  connect(patch?: Partial<ConnectionConfig>): Promise<void>;
  disconnect(): void;
  refreshTools(): Promise<void>;
}

/** The connection part of the inspector state. */
export interface ConnectionSlice {
  connection: ConnectionState;
}

/** The connection slice; it feeds the timeline slice's live queue. */
export function createConnectionSlice(
  set: SliceSet<ConnectionSlice>,
  get: SliceGet<ConnectionSlice & TimelineSlice & ServerRequestsSlice & AuthSlice & ServerOutputSlice>,
  options: InspectorStoreOptions = {},
): ConnectionSlice {
  let generation = 0;
  let abort: AbortController | undefined;
  const update = (patch: Partial<ConnectionState>) => set((s) => ({ connection: { ...s.connection, ...patch } }));
  const warn = (text: string) => update({ warnings: [...get().connection.warnings, text].slice(-50) });
  let busyTimer: ReturnType<typeof setTimeout> | undefined;
  const onBusy = (mine: number) => (wait: BusyWait) => {
    if (mine !== generation) return;
    const text = describeBusyWait(wait);
    clearTimeout(busyTimer);
    update({ busy: { text, until: Date.now() + wait.delayMs } });
    busyTimer = setTimeout(() => update({ busy: undefined }), wait.delayMs);
    warn(`${text}${wait.source === 'retry-after' ? ' (as its Retry-After asks)' : ''}`);
  };

  async function listTools(session: ClientSession, mine: number, signal: AbortSignal): Promise<RequestOutcome | undefined> {
    const listed = await session.listTools({ signal });
    if (mine !== generation) return undefined;
    if (listed.outcome.type === 'complete') update({ tools: listed.tools });
    else warn(`tools/list failed: ${describeOutcome(listed.outcome)}`);
    return listed.outcome;
  }

  async function connect(patch: Partial<ConnectionConfig> = {}) {
    disconnect();
    const mine = ++generation;
    const config = { ...get().connection.config, ...patch };
    const ac = new AbortController();
    abort = ac;
    let argv: string[] = [];
    const badUrl = config.mode === 'stdio' ? undefined : urlProblem(config.url);
    if (badUrl) return update({ config, status: 'error', error: badUrl.cause, problem: badUrl, route: undefined });
    try {
      if (config.mode === 'stdio') argv = splitCommandLine(config.url);
      if (config.mode === 'stdio' && !argv.length) throw new Error('Failed to start: type a command line');
    } catch (e) {
      const message = (e as Error).message;
      update({ config, status: 'error', error: message, problem: { cause: message, fix: 'Type the command that starts the server.' }, route: undefined });
      return;
    }
    let route: TransportRoute | undefined;
    const onRoute = (r: TransportRoute) => {
      route = r;
      if (mine === generation && get().connection.session) update({ route: r });
    };
    // After Authorize, an HTTP connection runs OAuth under its transport (lib/state/connection-auth.ts).
    const authed = get().auth.enabled && config.mode !== 'stdio' ? authorizedTransport(config, options, () => get().auth, ac.signal, onRoute) : undefined;
    const epoch = get().connection.epoch + 1;
    // The stdio child exiting ends this connection at once, saying so (its problem also explains a connect it cut short).
    let exited: ConnectProblem | undefined;
    const onOutput = stdioOutputHandler(get, epoch, (problem) => {
      if (mine !== generation) return;
      exited = problem;
      clearTimeout(busyTimer);
      update({ status: 'error', error: problem.cause, problem, busy: undefined });
    });
    const inner = authed?.transport ?? configTransport(config, argv, options, onRoute, onOutput);
    const transport = createTrackingTransport(inner, { sink: (f) => get().timeline.enqueue(f), ...(options.now ? { now: options.now } : {}) });
    authed?.attach(transport);
    const session = createClientSession({
      transport,
      era: config.era,
      capabilities: config.apps === false ? withoutApps(options.capabilities ?? INSPECTOR_CAPABILITIES) : (options.capabilities ?? INSPECTOR_CAPABILITIES),
      onWarning: warn,
      onBusy: onBusy(mine),
      // Any request of an OAuth connection may wait on a person signing in (or reading guided cards): 10 minutes.
      ...(authed ? { timeoutMs: 10 * 60_000 } : {}),
      // 2025-11-25: the server's elicitation and sampling requests wait for the person; Disconnect refuses them.
      onServerRequest: createInteractiveAnswerer((r, signal) => get().serverRequests.ask(r, signal), ac.signal),
      onNotification: (n) => onListChanged(changedList(n.method)),
      // 2025-11-25 HTTP: the session's GET stream, where a server asks and notifies outside a call (its frames reach the timeline).
      serverStream: true,
    });
    // The server changed its tools: list them again, one tools/list at a time however many notices come.
    const relistTools = coalesced(async () => mine === generation && (await listTools(session, mine, ac.signal)));
    const onListChanged = (list: ChangingList | undefined) => {
      if (!list || mine !== generation || get().connection.status !== 'connected') return;
      if (list === 'tools') return void relistTools();
      const changes = get().connection.listChanges;
      update({ listChanges: { ...changes, [list]: changes[list] + 1 } });
    };
    update({
      config,
      status: 'connecting',
      error: undefined,
      problem: undefined,
      route,
      server: undefined,
      tools: [],
      listChanges: NO_LIST_CHANGES,
      warnings: [],
      session,
      transport,
      epoch,
    });
    const out = await session.discover({ signal: ac.signal });
    if (mine !== generation) return;
    // A legacy server answers the probe through the initialize fallback; its result is the handshake.
    if (out.type !== 'complete' || !session.era) {
      clearTimeout(busyTimer);
      const problem = exited ?? explainConnectFailure({ url: config.url, mode: config.mode, pageOrigin: pageOrigin() }, out);
      update({ status: 'error', error: problem.cause, problem, busy: undefined });
      return;
    }
    const s = session.server;
    // "connected" means discover and tools/list are both done, so the tool list is there with it.
    const listed = await listTools(session, mine, ac.signal);
    if (mine !== generation) return;
    // A JSON-RPC error may just mean no tools; no answer at all (busy, unreachable, garbage) is a failed connect.
    if (exited) return;
    if (listed?.type === 'failure' || listed?.type === 'invalid') {
      const problem = explainConnectFailure({ url: config.url, mode: config.mode, pageOrigin: pageOrigin() }, listed);
      update({ status: 'error', error: `tools/list: ${problem.cause}`, problem: { ...problem, cause: `tools/list: ${problem.cause}` }, busy: undefined });
      return;
    }
    update({ status: 'connected', server: { ...s, protocolVersion: session.protocolVersion, era: session.era } });
    // 2026-07-28 has no GET stream: list changes come only on a listen that asks for them.
    if (session.era === 'modern' && options.watchListChanges !== false) watchListChanges(session, s?.capabilities, onListChanged, ac.signal);
  }

  function disconnect() {
    generation++;
    clearTimeout(busyTimer);
    abort?.abort(new Error('disconnected'));
    abort = undefined;
    // Closing the session aborts its requests, polls and listens, refuses new ones and releases
    // the transport (a stdio child is killed), so nothing reaches the server after Disconnect.
    const { session, transport } = get().connection;
    if (session) void session.close();
    else void transport?.close?.();
    if (get().connection.status !== 'idle') update({ status: 'idle', session: undefined, transport: undefined, busy: undefined });
  }

  return {
    connection: {
      config: DEFAULT_CONFIG,
      status: 'idle',
      tools: [],
      listChanges: NO_LIST_CHANGES,
      warnings: [],
      epoch: 0,
      setConfig: (patch) => update({ config: { ...get().connection.config, ...patch } }),
      connect,
      disconnect,
      async refreshTools() {
        const { session } = get().connection;
        if (session) await listTools(session, generation, (abort ?? new AbortController()).signal);
      },
    },
  };
}
