import { createHttpTransport } from '../client/http-transport';
import { createInteractiveAnswerer } from '../client/interactive-answerer';
import { createStdioProxyTransport, splitCommandLine } from '../client/stdio-proxy-transport';
import { describeOutcome, type RequestOutcome } from '../client/results';
import { describeBusyWait, type BusyWait } from '../client/retry-after';
import type { Era } from '../client/request-builder';
import { createClientSession, type ClientSession } from '../client/session';
import { createTrackingTransport, type TrackedTransport } from '../client/tracking';
import { EXT, type ClientCapabilities, type Implementation, type Tool } from '../protocol';
import type { InspectorStoreOptions } from './inspector-store';
import type { SliceGet, SliceSet } from './slice';
import type { ServerRequestsSlice } from './server-requests-slice';
import type { TimelineSlice } from './timeline-slice';
import { PROXY_PATH } from '../protocol/loupe-api';

/**
 * The connection slice: what to connect to (URL, direct or through Loupe's proxy, headers and
 * bearer token, era), the live client session, and what the server said about itself. The
 * session's transport is wrapped by the tracking decorator, whose frames go to the timeline,
 * so anything a panel does through `session` shows up there.
 */

/** `stdio`: `url` holds a command line the proxy spawns (split without a shell). */
export type ConnectionMode = 'direct' | 'proxy' | 'stdio';
type ConnectionStatus = 'idle' | 'connecting' | 'connected' | 'error';

/** A custom header row of the editor; disabled rows are kept but not sent. */
export interface HeaderRow {
  name: string;
  value: string;
  enabled: boolean;
}

/** What the connect form holds: where to connect, how, and with which headers. */
export interface ConnectionConfig {
  /** The MCP endpoint; a path (`/mcp`) is resolved against this page's origin. */
  url: string;
  mode: ConnectionMode;
  headers: HeaderRow[];
  /** Sent as `Authorization: Bearer …` when set (a header row named Authorization wins). */
  bearer: string;
  era: Era | 'auto';
  /** Declare the MCP Apps extension (io.modelcontextprotocol/ui) on requests; default true. */
  apps?: boolean;
}

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
  /** Why the last connect failed. */
  error?: string;
  /** A busy server (429/503) is being waited for: what the user reads, and when the retry goes out. */
  busy?: { text: string; until: number };
  server?: ServerSummary;
  /** Tools from the last tools/list (invalid ones dropped by the client). */
  tools: Tool[];
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

const DEFAULT_CONFIG: ConnectionConfig = { url: '/mcp', mode: 'direct', headers: [], bearer: '', era: 'auto' };

/** What the inspector declares: it can answer forms, URL elicitation, sampling and roots, and render apps. */
export const INSPECTOR_CAPABILITIES: ClientCapabilities = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: {},
  extensions: { [EXT.ui]: { mimeTypes: ['text/html;profile=mcp-app'] } },
};

/** The inspector's capabilities without the MCP Apps extension (servers then send text fallbacks). */
function withoutApps(caps: ClientCapabilities): ClientCapabilities {
  const { [EXT.ui]: _ui, ...extensions } = caps.extensions ?? {};
  return { ...caps, extensions };
}

/** The headers a config sends: enabled rows with a name, plus the bearer token. */
export function configHeaders(config: ConnectionConfig): Record<string, string> {
  const out: Record<string, string> = {};
  if (config.bearer.trim()) out.Authorization = `Bearer ${config.bearer.trim()}`;
  for (const h of config.headers) if (h.enabled && h.name.trim()) out[h.name.trim()] = h.value;
  return out;
}

/** An absolute URL for the proxy (it needs one); paths resolve against the page's origin. */
export function absoluteUrl(url: string): string {
  const base = typeof location !== 'undefined' ? location.origin : 'http://127.0.0.1';
  try {
    return new URL(url, base).toString();
  } catch {
    return url;
  }
}

/** The connection slice; it feeds the timeline slice's live queue. */
export function createConnectionSlice(
  set: SliceSet<ConnectionSlice>,
  get: SliceGet<ConnectionSlice & TimelineSlice & ServerRequestsSlice>,
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
    const headers = configHeaders(config);
    let argv: string[] = [];
    try {
      if (config.mode === 'stdio') argv = splitCommandLine(config.url);
      if (config.mode === 'stdio' && !argv.length) throw new Error('Failed to start: type a command line');
    } catch (e) {
      update({ config, status: 'error', error: (e as Error).message });
      return;
    }
    // A stdio command line was checked non-empty above, so argv[0] is there.
    const inner =
      config.mode === 'stdio'
        ? createStdioProxyTransport({ command: argv[0]!, args: argv.slice(1), fetch: options.fetch })
        : config.mode === 'proxy'
          ? createHttpTransport({ url: absoluteUrl(config.url), headers, proxy: { endpoint: options.proxyEndpoint ?? PROXY_PATH }, fetch: options.fetch })
          : createHttpTransport({ url: config.url, headers, fetch: options.fetch });
    const transport = createTrackingTransport(inner, { sink: (f) => get().timeline.enqueue(f), ...(options.now ? { now: options.now } : {}) });
    const session = createClientSession({
      transport,
      era: config.era,
      capabilities: config.apps === false ? withoutApps(options.capabilities ?? INSPECTOR_CAPABILITIES) : (options.capabilities ?? INSPECTOR_CAPABILITIES),
      onWarning: warn,
      onBusy: onBusy(mine),
      // 2025-11-25: the server's elicitation and sampling requests wait for the person; Disconnect refuses them.
      onServerRequest: createInteractiveAnswerer((r, signal) => get().serverRequests.ask(r, signal), ac.signal),
    });
    update({
      config,
      status: 'connecting',
      error: undefined,
      server: undefined,
      tools: [],
      warnings: [],
      session,
      transport,
      epoch: get().connection.epoch + 1,
    });
    const out = await session.discover({ signal: ac.signal });
    if (mine !== generation) return;
    // A legacy server answers the probe through the initialize fallback; its result is the handshake.
    if (out.type !== 'complete' || !session.era) {
      clearTimeout(busyTimer);
      update({ status: 'error', error: describeOutcome(out), busy: undefined });
      return;
    }
    const s = session.server;
    // "connected" means discover and tools/list are both done, so the tool list is there with it.
    const listed = await listTools(session, mine, ac.signal);
    if (mine !== generation) return;
    // A JSON-RPC error may just mean no tools; no answer at all (busy, unreachable, garbage) is a failed connect.
    if (listed?.type === 'failure' || listed?.type === 'invalid') {
      update({ status: 'error', error: `tools/list: ${describeOutcome(listed)}`, busy: undefined });
      return;
    }
    update({ status: 'connected', server: { ...s, protocolVersion: session.protocolVersion, era: session.era } });
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
