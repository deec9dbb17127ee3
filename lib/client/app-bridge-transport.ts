import { JsonRpcMessageSchema, type JsonRpcMessage } from '../protocol';
import { createBridgeRecorder, type BridgeDirection, type BridgeFrame } from './app-bridge-record';
import { asRecord } from '../shared/records';
import { BRIDGE_MESSAGES_PER_SECOND } from '../protocol/bridge-gate';
import { createFloodGate, createFrameBatcher, describeFlood, floodNotice, nextFrame, type FloodReport } from './bridge-flood';

/** Messages read per animation frame at most; the rest wait for the next one. */
const MESSAGES_PER_FRAME = 50;
/** Time a frame spends reading messages (at least one): a 1 MB message alone can take that. */
const FRAME_BUDGET_MS = 6;
/** While paused, the dropped count is told again at most this often. */
const NOTICE_MS = 250;
/** A paused view's listener goes once no message came for this long (its frame is gone by then). */
const QUIET_MS = 1000;
/** Once paused, messages are counted without reading them, but the first few are read for the proxy's later notices. */
const READ_WHILE_PAUSED = 64;

/**
 * The postMessage transport between the inspector and one app's sandbox proxy frame, for
 * ext-apps' `AppBridge`. Unlike the SDK's `PostMessageTransport` it checks both the sender
 * (`event.source` is this frame's window) and the origin (the sandbox origin), posts with that
 * exact target origin instead of `"*"`, and reports every message it passes, in and out, as a
 * `bridge` frame so the timeline's app lane and the bridge log show the whole conversation.
 * Incoming messages are rate-limited and read a few per animation frame (bridge-flood.ts): a
 * view that floods is paused, its further messages counted and dropped unread. The sandbox proxy
 * stops a flooding view first and says so (`ui/notifications/sandbox-flooded`, after the last
 * message it relayed): the pause then comes once what it relayed is read, with its report.
 */

export type { BridgeFrame };

interface BridgeTransportOptions {
  /** The sandbox proxy frame's window (the outer iframe's `contentWindow`). */
  target: () => Window | null | undefined;
  /** The sandbox origin: messages from anywhere else are ignored, and ours are sent only there. */
  origin: string;
  /** Groups this view's bridge frames on the timeline (one exchange per app view). */
  exchangeId: string;
  /** Receives each frame; must not throw. */
  record?: (frame: BridgeFrame) => void;
  /** Extra detail for a frame (e.g. "Refused: …" on an error answering a refused tools/call). */
  annotate?: (message: JsonRpcMessage, direction: BridgeDirection) => string | undefined;
  /** The window whose `message` events to watch (default: the global window). */
  listenOn?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  /** Messages per second before the view is paused (default BRIDGE_MESSAGES_PER_SECOND). */
  perSecond?: number;
  /** JSON per ten seconds before the view is paused (default BRIDGE_BYTES_PER_WINDOW). */
  bytesLimit?: number;
  /** The view went over the limit (first call), then the dropped count grew (at most every NOTICE_MS, closed or not, until its messages stop). */
  onFlood?: (report: FloodReport) => void;
  /** Clock in ms (default performance.now), frame scheduler (default: the next animation frame) and timer; tests inject them. */
  now?: () => number;
  schedule?: typeof nextFrame;
  later?: (run: () => void, ms: number) => () => void;
}

/** A message waiting to be read, with the time it came; `notice` is the proxy's pause, in its place in line. */
type Arrival = { event: MessageEvent; at: number } | { notice: true };

/** The SDK Transport shape AppBridge.connect() takes. */
interface BridgeTransport {
  start(): Promise<void>;
  send(message: JsonRpcMessage): Promise<void>;
  close(): Promise<void>;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JsonRpcMessage) => void;
  sessionId?: string;
}

/** Create the checked transport for one sandbox frame. */
export function createBridgeTransport(options: BridgeTransportOptions): BridgeTransport {
  const listenOn = options.listenOn ?? globalThis.window;
  let closed = false;

  const record = createBridgeRecorder(options.exchangeId, options.record);

  const schedule = options.schedule ?? nextFrame;
  const now = options.now ?? (() => performance.now());
  const later =
    options.later ??
    ((run: () => void, ms: number) => {
      const timer = setTimeout(run, ms);
      return () => clearTimeout(timer);
    });
  const gate = createFloodGate(options.perSecond, options.bytesLimit);
  // The proxy's report once it stopped the view; the host adds what it dropped itself.
  let relayed: FloodReport | undefined;
  const report = (): FloodReport | undefined => {
    const own = gate.report();
    if (!own || !relayed) return own;
    return { ...relayed, dropped: relayed.dropped + own.dropped };
  };
  const heard = (notice: FloodReport) => {
    relayed = relayed ? { ...relayed, dropped: Math.max(relayed.dropped, notice.dropped) } : notice;
  };
  const gateLimit = options.perSecond ?? BRIDGE_MESSAGES_PER_SECOND;
  // The window whose messages are counted as dropped once paused: the frame may be gone by then.
  let source: MessageEventSource | null = null;
  let listening = false;
  const detach = () => {
    if (!listening) return;
    listening = false;
    listenOn.removeEventListener('message', listener as EventListener);
  };

  // Paused: the dropped count is told again at most every NOTICE_MS, and the listener goes once
  // QUIET_MS pass without a message (the frame is gone by then, so nothing more is coming).
  let lastDrop = 0;
  let told = -1;
  let cancelTick: (() => void) | undefined;
  const tick = () => {
    cancelTick = undefined;
    const latest = report();
    if (latest && latest.dropped !== told) {
      told = latest.dropped;
      options.onFlood?.(latest);
    }
    if (now() - lastDrop >= QUIET_MS) detach();
    else cancelTick = later(tick, NOTICE_MS);
  };
  const flooded = () => {
    const first = report();
    if (!first) return;
    lastDrop = now();
    if (cancelTick) return;
    if (told >= 0) {
      cancelTick = later(tick, NOTICE_MS);
      return;
    }
    // The pause itself: what waited unread is dropped with it; one flagged frame says why.
    gate.drop(batcher.cancel());
    const at = report() ?? first;
    told = at.dropped;
    record({}, 'in', describeFlood(at));
    options.onFlood?.(at);
    cancelTick = later(tick, NOTICE_MS);
  };

  const receive = (item: Arrival) => {
    if (closed) return;
    if ('notice' in item) {
      // Everything the proxy relayed before it stopped the view is read: now the pause.
      gate.trip(now());
      return flooded();
    }
    const { event, at } = item;
    const data: unknown = event.data;
    if (asRecord(data)?.jsonrpc !== '2.0') return;
    let raw: string | undefined;
    try {
      raw = JSON.stringify(data);
    } catch {
      raw = undefined;
    }
    // Weighed at its arrival time: a slow page reading one big message a frame still sees the rate it was sent at.
    if (!gate.weigh(at, raw?.length ?? 0)) return flooded();
    const parsed = JsonRpcMessageSchema.safeParse(data);
    if (!parsed.success) {
      record(data, 'in', `Invalid JSON-RPC message: ${parsed.error.issues[0]?.message ?? 'malformed'}`, raw);
      transport.onerror?.(new Error('Failed to read a bridge message: invalid JSON-RPC'));
      return;
    }
    const message = data as JsonRpcMessage;
    record(message, 'in', options.annotate?.(message, 'in'), raw);
    transport.onmessage?.(message);
  };
  // A frame reads what it can within its budget: one timeline update and one render per frame.
  const batcher = createFrameBatcher<Arrival>(receive, { schedule, perFrame: MESSAGES_PER_FRAME, budgetMs: FRAME_BUDGET_MS, now });

  // The view's own window (the proxy frame's only child), once seen: a view may post to this page
  // directly, around its proxy's gate; such messages are never read, only counted as the view's.
  let view: Window | undefined;
  const direct = (event: MessageEvent, target: Window | null | undefined) => {
    if (!event.source) return false;
    view ??= target?.frames?.[0] ?? undefined;
    return view !== undefined && event.source === view;
  };
  const listener = (event: MessageEvent) => {
    if (gate.paused) {
      // The cheapest path there is: a comparison and a count; past the first few, nothing read.
      if (event.source === source && event.origin === options.origin) {
        const notice = (gate.report()?.dropped ?? 0) < READ_WHILE_PAUSED ? floodNotice(event.data) : undefined;
        if (notice) heard(notice);
        else gate.admit(now());
        flooded();
      } else if (view && event.source === view) {
        gate.admit(now());
        flooded();
      }
      return;
    }
    const target = options.target();
    if (closed || !target) return;
    if (event.source !== target) {
      if (direct(event, target) && !gate.admit(now())) flooded();
      return;
    }
    if (event.origin !== options.origin) return;
    source = event.source;
    // The proxy's notice is not the view's message: it is not counted, and takes its place in line.
    const notice = floodNotice(event.data);
    if (notice) {
      if (!relayed) batcher.push({ notice: true });
      return heard(notice);
    }
    // Counted before anything reads the message.
    if (!gate.admit(now())) return flooded();
    // A host too busy to keep up (a slow machine) must not queue the flood instead: a second's worth waiting is a flood too.
    if (batcher.size >= gateLimit) {
      gate.trip(now());
      gate.admit(now());
      return flooded();
    }
    batcher.push({ event, at: now() });
  };

  const transport: BridgeTransport = {
    async start() {
      if (listening || closed) return;
      listening = true;
      listenOn.addEventListener('message', listener as EventListener);
    },
    async send(message) {
      if (closed) throw new Error('Failed to send a bridge message: the transport is closed');
      const target = options.target();
      if (!target) {
        // The frame was removed (the page moved on, the view unmounted) before the host closed
        // the bridge: nobody can read this message. Rejecting would surface as an uncaught error,
        // since ext-apps sends host-context-changed without catching, so it is dropped and logged;
        // a pending request (ui/resource-teardown) ends at its own timeout.
        record(message, 'out', 'Not delivered: the sandbox frame is gone');
        return;
      }
      record(message, 'out', options.annotate?.(message, 'out'));
      target.postMessage(message, options.origin);
    },
    async close() {
      if (closed) return;
      closed = true;
      batcher.cancel();
      // A paused view's listener stays until its messages stop (tick), counting what it drops.
      if (!gate.paused) detach();
      transport.onclose?.();
    },
  };
  return transport;
}
