import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ClientCapabilities } from '../protocol';
import { createAuthSlice, type AuthSlice } from './auth-slice';
import { createConnectionSlice, type ConnectionSlice } from './connection-slice';
import { createServerOutputSlice, type ServerOutputSlice } from './server-output-slice';
import { createServerRequestsSlice, type ServerRequestsSlice } from './server-requests-slice';
import { createStreamsSlice } from './streams-slice';
import type { StreamsSlice } from './streams-types';
import { createTaskRunner, type TaskRunner } from './task-runner';
import { createTasksSlice } from './tasks-slice';
import type { TasksSlice } from './tasks-types';
import { createTimelineSlice, type TimelineSlice } from './timeline-slice';
import { createUiSlice, type UiSlice } from './ui-slice';
import type { SpillHandler, TimelineLimits } from './timeline-types';

/**
 * The inspector's state: one zustand vanilla store per mounted inspector (created by
 * `<InspectorProvider>`), composed of slices that each live under their own key.
 *
 * docs — how to use it (panels, apps, recordings code against this):
 *
 *   const store = createInspectorStore();            // or useInspectorStore() in React
 *   const s = store.getState();
 *
 * `s.connection` (lib/state/connection-slice.ts)
 *   config { url, mode: 'direct'|'proxy', headers: HeaderRow[], bearer, era: 'auto'|'modern'|'legacy' }
 *   status 'idle'|'connecting'|'connected'|'error', error?, server? (info, capabilities,
 *   supportedVersions, instructions, protocolVersion, era), tools (from tools/list), warnings,
 *   epoch (grows on every connect; key effects on it),
 *   session?: ClientSession — the live lib/client session (callTool, callWithInput,
 *            followTask, listen, getTask, updateTask, cancelTask...). Every frame it produces
 *            already lands on the timeline: panels just call it.
 *   transport?: TrackedTransport — `transport.record({...})` adds a frame that did not come
 *            through `send` (apps: `kind: 'bridge'`, set `conversationId` to the app instance
 *            so its bridge messages form one span).
 *   setConfig(patch), connect(patch?) (discover + tools/list), disconnect(), refreshTools().
 *
 * `s.timeline` (lib/state/timeline-slice.ts) — byte-bounded, see timeline-buffer.ts
 *   version (grows on every change: subscribe to it, then read through `buffer`), stats
 *   { count, firstId, nextId, retainedBytes, bodyBytes, spilled, spilledBytes },
 *   lintVersion, filters, search, selectedId?,
 *   buffer: TimelineBuffer — non-reactive reads: get(id), ids(), forEach(fn), fullBody(id),
 *            text(id), span(key), spans(), longSpans(), spansOf(entry), lintsOf(exchangeId),
 *            previousSnapshot(id). Entries carry taskFp (never render taskId).
 *   append(frame) (one update), enqueue(frame) (live: batched per animation frame, bursts in slices; the connection uses it),
 *   appendMany(frames, { lints? }) (ONE store update: use it to open a recording; pass the
 *            recording's lints, keyed by exchangeId, to skip re-linting; a 100k recording
 *            needs `limits.maxBytes` of ~100 MiB to be held whole: entries cost ~0.5-1 KiB),
 *   clear(), setFilters(patch), setSearch(text), select(id?), setFollow(b), flushLints(),
 *   subscribeFrames(listener): () => void — every ingested Frame as it came (parsed body
 *            included), in batches; feed a streams/tasks slice from here. Not replayed.
 *
 * `s.ui` (lib/state/ui-slice.ts): reveal (masked header values shown), detailTab, panel.
 *
 * `s.tasks`, `s.streams` (lib/state/tasks-slice.ts, streams-slice.ts): fed with every frame
 * batch here (their `ingestMany`), and by the panels' own calls.
 *
 * `s.serverOutput` (lib/state/server-output-slice.ts): a stdio server's stderr, non-JSON stdout
 * and the proxy's notes, with its exit (bounded lines stamped with the connect's epoch).
 *
 * `s.serverRequests` (lib/state/server-requests-slice.ts): a 2025-11-25 server's elicitation and
 * sampling requests waiting for the person (`pending`, `settle(seq, answer)`); the connection's
 * answerer fills it, components/elicitation/ServerRequestsDialog.tsx shows it.
 *
 * `store.taskRunner()` (lib/state/task-runner.ts): the store's task runner, made on first use
 * and owned by the store, so followers and listens outlive a hidden tasks panel.
 *
 * Read with selectors (lib/state/selectors.ts) so components re-render only on what they show.
 * Adding a slice: write `createXSlice(set, get)` against lib/state/slice.ts, add it to
 * `InspectorState` and to the spread below.
 */

/** The inspector state: every slice. */
export type InspectorState = ConnectionSlice & TimelineSlice & UiSlice & TasksSlice & StreamsSlice & ServerRequestsSlice & AuthSlice & ServerOutputSlice;
/** The inspector store, with its task runner. */
export type InspectorStore = StoreApi<InspectorState> & {
  /** The store's task runner (one per store, created on first use). */
  taskRunner(): TaskRunner;
};

/** Options of an inspector store: budgets, spill, and how to reach servers. */
export interface InspectorStoreOptions {
  /** Byte budgets of the timeline (defaults: 32 MiB list, 16 MiB bodies, 64 KiB previews). */
  limits?: Partial<TimelineLimits>;
  /** Receives entries evicted from the timeline instead of only counting them. */
  spill?: SpillHandler;
  /** fetch for the HTTP transport (tests; default globalThis.fetch). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** The proxy endpoint for `mode: 'proxy'` (default `/api/proxy`, cookie-authenticated). */
  proxyEndpoint?: string;
  /** Capabilities the session declares (default: elicitation form+url, sampling, roots). */
  capabilities?: ClientCapabilities;
  /** Wall clock for frames (default Date.now). */
  now?: () => number;
  /** How queued lint work is scheduled (default: a macrotask). Pass `(run) => run()` to lint synchronously. */
  scheduleLint?: (run: () => void) => void;
  /** How a batch of live frames is flushed into the timeline (default: before the next animation frame; a microtask without a DOM). */
  scheduleFrames?: (flush: () => void) => void;
  /** Lint exchanges as they complete (default true). */
  lint?: boolean;
  /** Keep a subscriptions/listen for list changes on 2026-07-28 connections (default true; lib/state/list-changes.ts). */
  watchListChanges?: boolean;
}

/** Create one inspector store (one per provider mount; never a module singleton). */
export function createInspectorStore(options: InspectorStoreOptions = {}): InspectorStore {
  const store = createStore<InspectorState>()((set, get) => ({
    ...createTimelineSlice(set, get, options),
    ...createConnectionSlice(set, get, options),
    ...createUiSlice(set, get),
    ...createTasksSlice(set, get),
    ...createStreamsSlice(set, get),
    ...createServerRequestsSlice(set, get),
    ...createAuthSlice(set, get),
    ...createServerOutputSlice(set, get, options.now),
  }));
  store.getState().timeline.subscribeFrames((frames) => {
    // One store update per batch and slice (a 100,000-frame recording included).
    const { tasks, streams } = store.getState();
    tasks.ingestMany(frames);
    streams.ingestMany(frames);
  });
  // Made on first use (the tasks panel, a tool call run as a task): other stores never subscribe one.
  let runner: TaskRunner | undefined;
  return Object.assign(store, { taskRunner: () => (runner ??= createTaskRunner(store)) });
}
