import { AppBridge, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { checkAppToolCall, grantedPermissions, sanitizeUiCsp, type JsonRpcMessage, type Tool } from '../protocol';
import { createBridgeTransport, type BridgeFrame } from './app-bridge-transport';
import type { AppResource } from './app-resource';
import type { FloodReport } from './bridge-flood';
import { bridgeError, cancelReason, partialArguments, toCallToolResult } from './app-tool-payloads';
import type { RequestOutcome } from './results';

/**
 * One rendered MCP App, host side: ext-apps' `AppBridge` over the checked transport, with the
 * inspector's own policy in the handlers. The bridge gets no SDK client (`null`), so nothing
 * reaches a server unless a handler here forwards it: tools/call only for a tool of this
 * server whose visibility includes "app" (everything else is refused and flagged), resources/read
 * over the same connection, and the `ui/*` requests answered by the inspector UI.
 *
 * Order (spec §4.1): sandbox-proxy-ready → sandbox-resource-ready → ui/initialize (answered by
 * AppBridge with the host context) → initialized → tool-input-partial… → tool-input → tool-result
 * or tool-cancelled. Nothing but the initialize answer goes to the view before `initialized`.
 */

/** How the inspector introduces itself to views (`hostInfo` in the ui/initialize answer). */
const HOST_INFO = { name: 'mcp-loupe', version: '0.1.0' };
/** Display modes the inspector can show a view in. */
const HOST_DISPLAY_MODES = ['inline', 'fullscreen'] as const;
type DisplayMode = (typeof HOST_DISPLAY_MODES)[number];

/** What the host UI hears about, besides the bridge frames. */
interface AppHostEvents {
  onInitialized?(app: { name?: string; version?: string }): void;
  onSize?(size: { width?: number; height?: number }): void;
  onDisplayMode?(mode: DisplayMode): void;
  /** Ask the user before opening a link; resolve true to open it. */
  confirmOpenLink?(url: string): Promise<boolean>;
  onMessage?(params: unknown): void;
  onModelContext?(params: unknown): void;
  onLog?(params: unknown): void;
  onRefusal?(tool: string, reason: string): void;
  onRequestTeardown?(): void;
  onError?(error: Error): void;
  /** The view sent more than `perSecond` messages in a second: it is paused (called again as dropped messages add up). */
  onFlood?(report: FloodReport): void;
}

interface AppHostOptions extends AppHostEvents {
  /** The outer (sandbox proxy) iframe; its `src` is set by the caller after `connect()`. */
  frame: HTMLIFrameElement;
  sandboxOrigin: string;
  /** Names this view's bridge frames (one exchange per view on the timeline). */
  viewId: string;
  tool: Tool;
  /** The tools/list of the server that served the view (visibility and same-server checks). */
  serverTools(): readonly Tool[];
  resource: AppResource;
  hostContext: McpUiHostContext;
  callTool(name: string, args: Record<string, unknown>): Promise<RequestOutcome>;
  readResource(uri: string): Promise<RequestOutcome>;
  record?(frame: BridgeFrame): void;
  /** Bridge messages per second the view may send (default BRIDGE_MESSAGES_PER_SECOND). */
  perSecond?: number;
}

/** The host side of one rendered view, as the inspector UI drives it. */
export interface AppHost {
  /** Start listening: call before the proxy page loads. */
  connect(): Promise<void>;
  /** The tool's arguments (sent, with partial previews, once the view is initialized). */
  input(args: Record<string, unknown>): void;
  /** The tool call's outcome: a result, or a cancellation when it failed or was abandoned. Pending kinds are ignored. */
  outcome(outcome: RequestOutcome | { type: 'abandoned' }): void;
  /** Change the host context (theme, size, display mode); only the changed fields are sent. */
  updateContext(patch: Partial<McpUiHostContext>): void;
  /** ui/resource-teardown, waiting briefly for the view's answer, then close. */
  teardown(): Promise<void>;
}

/** Create the host side of one view. */
export function createAppHost(o: AppHostOptions): AppHost {
  const { csp } = sanitizeUiCsp(o.resource.meta.csp);
  const granted = Object.fromEntries(grantedPermissions(o.resource.meta.permissions).map((k) => [k, {}]));
  let context: McpUiHostContext = { ...o.hostContext, availableDisplayModes: [...HOST_DISPLAY_MODES] };
  // The context ui/initialize answers with: AppBridge keeps this object, so changes before the view
  // asks (its container's size, observed after the frame's first layout) are in the answer.
  const initial = context;
  const bridge = new AppBridge(
    null,
    HOST_INFO,
    {
      openLinks: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      message: { text: {} },
      updateModelContext: { text: {}, structuredContent: {} },
      sandbox: { permissions: granted, csp },
    },
    { hostContext: initial },
  );
  const refused = new Map<string | number, string>();
  let initialized = false;
  let args: Record<string, unknown> | undefined;
  let inputSent = false;
  let pendingOutcome: RequestOutcome | { type: 'abandoned' } | undefined;
  let done = false;
  let tornDown: Promise<void> | undefined;
  // A paused view's answers are dropped, so teardown does not ask it and wait.
  let flooded = false;

  const transport = createBridgeTransport({
    target: () => o.frame.contentWindow,
    origin: o.sandboxOrigin,
    exchangeId: `app:${o.viewId}`,
    record: o.record,
    ...(o.perSecond !== undefined ? { perSecond: o.perSecond } : {}),
    onFlood: (report) => {
      flooded = true;
      o.onFlood?.(report);
    },
    annotate: (m: JsonRpcMessage) => ('error' in m && m.id !== null && m.id !== undefined ? refused.get(m.id) : undefined),
  });

  const fail = (e: unknown) => o.onError?.(e instanceof Error ? e : new Error(String(e)));

  function flush(): void {
    if (!initialized || done) return;
    if (args && !inputSent) {
      inputSent = true;
      for (const p of partialArguments(args)) void bridge.sendToolInputPartial({ arguments: p }).catch(fail);
      void bridge.sendToolInput({ arguments: args }).catch(fail);
    }
    const outcome = pendingOutcome;
    if (!outcome || !inputSent) return;
    pendingOutcome = undefined;
    done = true;
    if (outcome.type === 'complete') {
      void bridge.sendToolResult(toCallToolResult(outcome) as never).catch(fail);
      return;
    }
    void bridge.sendToolCancelled({ reason: cancelReason(outcome) }).catch(fail);
  }

  bridge.onsandboxready = () => {
    const { html, meta } = o.resource;
    void bridge.sendSandboxResourceReady({ html, csp, permissions: meta.permissions ?? {} }).catch(fail);
  };
  bridge.oninitialized = () => {
    initialized = true;
    // The view finished its handshake as the page left: the bridge is closed, nothing may be sent.
    if (tornDown) return;
    const info = bridge.getAppVersion();
    o.onInitialized?.({ name: info?.name, version: info?.version });
    bridge.setHostContext(context);
    flush();
  };
  bridge.oncalltool = async (params, extra) => {
    const refusal = checkAppToolCall(o.serverTools(), params.name);
    if (refusal) {
      refused.set(extra.mcpReq.id, refusal.message);
      o.onRefusal?.(String(params.name), refusal.message);
      throw bridgeError(-32000, refusal.message, { refused: refusal.code, tool: params.name });
    }
    // The view's own `_meta` (its progress token) stays on the bridge; the server sees a clean call.
    return toCallToolResult(await o.callTool(params.name, (params.arguments ?? {}) as Record<string, unknown>)) as never;
  };
  bridge.onreadresource = async (params) => {
    const outcome = await o.readResource(params.uri);
    if (outcome.type !== 'complete') return toCallToolResult(outcome) as never;
    const { resultType: _r, ...result } = outcome.result;
    return result as never;
  };
  bridge.onopenlink = async ({ url }) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return { isError: true };
    const ok = (await o.confirmOpenLink?.(parsed.href)) ?? false;
    if (!ok) return { isError: true };
    window.open(parsed.href, '_blank', 'noopener,noreferrer');
    return {};
  };
  bridge.onmessage = async (params) => {
    o.onMessage?.(params);
    return {};
  };
  bridge.onupdatemodelcontext = async (params) => {
    o.onModelContext?.(params);
    return {};
  };
  bridge.onloggingmessage = (params) => o.onLog?.(params);
  bridge.onsizechange = (size) => o.onSize?.(size);
  bridge.onrequestdisplaymode = async ({ mode }) => {
    const allowed = bridge.getAppCapabilities()?.availableDisplayModes;
    if ((HOST_DISPLAY_MODES as readonly string[]).includes(mode) && (!allowed || allowed.includes(mode))) {
      host.updateContext({ displayMode: mode });
      o.onDisplayMode?.(mode as DisplayMode);
    }
    return { mode: context.displayMode ?? 'inline' };
  };
  bridge.onrequestteardown = () => o.onRequestTeardown?.();
  bridge.onerror = fail;

  const host: AppHost = {
    connect: () => bridge.connect(transport as never),
    input(a) {
      if (args) return;
      args = a;
      flush();
    },
    outcome(outcome) {
      if (done || outcome.type === 'task' || outcome.type === 'input_required') return;
      pendingOutcome = outcome;
      flush();
    },
    updateContext(patch) {
      context = { ...context, ...patch };
      // Into ui/initialize's answer while the view has not asked (AppBridge notes who asks first).
      if (bridge.getAppVersion() === undefined) Object.assign(initial, patch);
      // Before `initialized` nothing may be sent: the change goes out (as a diff) once it arrives.
      // Nor once teardown began: ext-apps sends this change without catching, and a closed
      // bridge refuses it ("Not connected"), which would be an uncaught error on the page.
      if (initialized && !tornDown) bridge.setHostContext(context);
    },
    async teardown() {
      if (tornDown) return tornDown;
      tornDown = (async () => {
        try {
          if (initialized && !flooded) await bridge.teardownResource({}, { timeout: 2000 });
        } catch {
          /* a view that does not answer is removed anyway */
        }
        await bridge.close().catch(() => undefined);
      })();
      return tornDown;
    },
  };
  return host;
}
