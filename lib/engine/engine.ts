import type { Scenario, ToolSpec } from '../scenario/schema';
import { createMemoryStores } from '../store/memory';
import type { Stores, TaskRecord } from '../store/types';
import type { EngineCore } from './context';
import { createHttpFront } from './http';
import type { HttpInput, HttpOutput } from './http-types';
import { createListenHub } from './listen';
import { createMessageFace } from './message-face';
import { createOutboundRequests } from './legacy-session';
import { createLegacySessions } from './legacy-http';
import { createRequestPipeline } from './pipeline';
import { createStateCodec } from './request-state';
import { createRandomIds, createServerClock, randomToken, type Clock, type IdSource } from './runtime';
import type { ControlAction } from './task-control';
import { createTaskManager } from './tasks';
import { anonymousPrincipal, createPrincipalResolver } from './principal';
import { createJournal, type Journal } from './journal';
import { createFaultInjector, createSharedFaultInjector } from './faults';
import { mergeFleetJournal, type FleetJournalEntry } from './fleet-journal';
import { createInstanceFaults } from './instance-faults';
import { gradeClient, type ReportCard } from './report-card';
import { createAuthServer } from './auth/server';
import { redactHeaders } from './auth/http-util';

/** Options of {@link createMockEngine}. Everything but the scenario has a default. */
export interface MockEngineOptions {
  scenario: Scenario;
  stores?: Stores;
  clock?: Clock;
  ids?: IdSource;
  /** HMAC key for requestState; must be stable across restarts for retries to survive them. */
  secret?: string | Uint8Array;
  /** Extra host names accepted besides loopback. */
  allowedHosts?: string[];
  allowedOrigins?: string[];
  /** Journal capacity (entries). */
  journalSize?: number;
  /** Seed for fault probabilities, latencies and shuffles; overrides the scenario's `seed` (default: the scenario id). */
  seed?: number | string;
  /** Journal capacity (approximate characters across entries). */
  journalBytes?: number;
  /** HS256 key of the JWTs whose `sub` names the caller; without it a token is its own principal (principal.ts). */
  principalKey?: string | Uint8Array;
  /** With shared stores: how long this instance's lease on a task's timed steps lasts unrenewed. Default 3000. */
  leaseMs?: number;
}

/** Engine events, for the control room and tests. */
export type EngineEvent = { type: string; data: unknown };

/** A running mock endpoint for one scenario. */
export interface MockEngine {
  readonly scenario: Scenario;
  /** Streamable HTTP face: a web-standard fetch handler. */
  fetch(request: Request): Promise<Response>;
  /** The same face without web Request/Response objects, for hosts that speak node:http. */
  handle(input: HttpInput): Promise<HttpOutput>;
  /**
   * Message face for stdio and in-memory transports: handles one parsed message and sends
   * responses and notifications through `send`. notifications/cancelled aborts a request.
   */
  handleMessage(message: unknown, send: (message: unknown) => void): Promise<void>;
  /** A message face of its own, for one more connection (its own 2025-11-25 session). */
  connect(): (message: unknown, send: (message: unknown) => void) => Promise<void>;
  tasks: {
    list(): Promise<TaskRecord[]>;
    get(taskId: string): Promise<TaskRecord | undefined>;
    control(taskId: string, action: ControlAction): Promise<TaskRecord | undefined>;
  };
  /** Every exchange served (over HTTP, and each stdio message), bounded; `journal.subscribe` streams changes. */
  journal: Journal;
  /** Which instance this engine is in a fleet (its finished exchanges carry it in the shared journal). */
  readonly instance: string;
  /**
   * Only where stores are shared (a fleet): every instance's finished exchanges with a fleet seq
   * above `sinceSeq`, in the order they began, each naming the instance that served it.
   */
  fleetJournal?: (sinceSeq?: number) => Promise<FleetJournalEntry[]>;
  /** The scenario's authorization server and metadata paths (auth/server.ts); absent without an `auth:` block. */
  handleAuth?: (input: HttpInput) => Promise<HttpOutput>;
  /** Grade the client's behaviour so far from the journal (see report-card.ts). */
  reportCard(): ReportCard;
  /** The same over every instance's traffic where stores are shared (a fleet); else this instance's. */
  fleetReportCard(): Promise<ReportCard>;
  on(listener: (event: EngineEvent) => void): () => void;
  /** Restore the scenario's initial state and drop its tasks, ledger and nonces. */
  reset(): Promise<void>;
  close(): void;
}

/**
 * Create a mock MCP server for a scenario. A request flows one way: a face (HTTP or messages)
 * → the request pipeline (principal, era) → that era's dispatch → the method's handler.
 */
export function createMockEngine(options: MockEngineOptions): MockEngine {
  const scenario = options.scenario;
  const stores = options.stores ?? createMemoryStores({ replayMaxEntries: scenario.settings.replayStoreMaxEntries });
  const clock = options.clock ?? createServerClock();
  const listeners = new Set<(e: EngineEvent) => void>();
  const toolMap = new Map<string, ToolSpec>(scenario.tools.map((t) => [t.name, t]));
  const journal = createJournal({ clock, capacity: options.journalSize, maxBytes: options.journalBytes });
  const instanceId = randomToken(9);
  const instanceFaults = createInstanceFaults(
    scenario.faults.map((f) => f.action.kind),
    clock,
  );

  const core: EngineCore = {
    scenario,
    stores,
    clock,
    ids: options.ids ?? createRandomIds(),
    codec: createStateCodec(options.secret ?? randomToken(32)),
    principalOf: createPrincipalResolver(scenario.id, options.principalKey),
    anonymous: anonymousPrincipal(scenario.id),
    state: structuredClone(scenario.state),
    tool: (name) => toolMap.get(name),
    broadcast: (kind, method) => hub.broadcast(kind, method),
    emit: (type, data) => {
      for (const l of listeners) l({ type, data });
    },
    serverInfo: () => ({ name: scenario.server.name, version: scenario.server.version, ...(scenario.server.title ? { title: scenario.server.title } : {}) }),
    instanceId,
    ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
    ...(instanceFaults ? { instanceFaults } : {}),
  };
  const tasks = createTaskManager(core);
  const hub = createListenHub(core, tasks);
  const outbound = createOutboundRequests();
  const pipeline = createRequestPipeline(core, tasks, hub, outbound);

  const auth = scenario.auth
    ? createAuthServer({ spec: scenario.auth, scenarioId: scenario.id, clock, tap: journal, allowedHosts: options.allowedHosts ?? [] })
    : undefined;
  const seed = options.seed ?? scenario.seed ?? scenario.id;
  const faults = stores.shared
    ? createSharedFaultInjector(scenario.faults, seed, stores.faults, scenario.id, (e) => core.emit('faults:store-error', { error: String(e) }))
    : createFaultInjector(scenario.faults, seed);
  const anonymousFields = { principal: core.anonymous };
  const http = createHttpFront({
    faults,
    ...(instanceFaults ? { instance: instanceFaults } : {}),
    maxBodyBytes: scenario.settings.maxBodyBytes,
    keepAliveMs: scenario.settings.keepAliveMs,
    allowedHosts: options.allowedHosts ?? [],
    allowedOrigins: options.allowedOrigins ?? [],
    setTimer: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimer: (h) => clock.clearTimeout(h),
    pipeline,
    outbound,
    ...(auth ? { authorize: auth.guard } : {}),
    sessions: createLegacySessions({
      maxSessions: 1_000,
      ...(stores.shared ? { fleet: true } : {}),
      keepAliveMs: scenario.settings.keepAliveMs,
      setTimer: (fn, ms) => clock.setTimeout(fn, ms),
      clearTimer: (h) => clock.clearTimeout(h),
    }),
    tap: {
      open(start) {
        // Bearer tokens never reach the journal in clear (the server redacts its own cookie).
        const authorization = start.requestHeaders.authorization;
        const handle = journal.open(authorization === undefined ? start : { ...start, requestHeaders: redactHeaders(start.requestHeaders, ['authorization']) });
        // A caller without a token is known at once: no promise and callback per request.
        if (authorization === undefined) handle.annotate(anonymousFields);
        else void core.principalOf(authorization).then((p) => handle.annotate({ principal: p }));
        return handle;
      },
    },
  });

  // stdio and in-memory messages are journaled too, under the pipeline's principal for them.
  const messageJournal = { tap: journal, principal: `${scenario.id}:stdio` };
  // Live views subscribe to the journal itself; engine listeners get the same changes as events.
  journal.subscribe((e) => {
    if (e.type === 'entry') core.emit('journal:entry', e.entry);
    else if (e.type === 'frame') core.emit('journal:frame', { seq: e.entry.seq, frame: e.frame });
    else if (e.type === 'end') core.emit('journal:end', e.entry);
    else core.emit('journal:clear', {});
  });
  // A fleet grades every instance's traffic: each finished exchange goes to the shared store too.
  const journalCapacity = options.journalSize ?? 2000;
  // Appends still on their way: a read waits for them, so it sees what this instance served (a report at exit too).
  const appending = new Set<Promise<void>>();
  const fleetJournal = async (sinceSeq = 0) => {
    await Promise.all(appending);
    return mergeFleetJournal(await stores.journal.list(scenario.id, journalCapacity, sinceSeq));
  };
  if (stores.shared)
    journal.subscribe((e) => {
      if (e.type !== 'end') return;
      const append = stores.journal
        .append(scenario.id, instanceId, e.entry, journalCapacity)
        .catch((error: unknown) => core.emit('journal:store-error', { error: String(error) }))
        .finally(() => appending.delete(append));
      appending.add(append);
    });

  return {
    scenario,
    fetch: http.fetch,
    handle: http.handle,
    ...(auth ? { handleAuth: auth.handle } : {}),
    handleMessage: createMessageFace(pipeline, outbound, messageJournal),
    connect: () => createMessageFace(pipeline, outbound, messageJournal),
    tasks: {
      list: () => stores.tasks.list({ scenarioId: scenario.id }),
      get: (taskId) => tasks.read(taskId, undefined),
      control: (taskId, action) => tasks.control(taskId, action),
    },
    journal,
    instance: instanceId,
    ...(stores.shared ? { fleetJournal } : {}),
    reportCard: () => gradeClient(journal.entries(), scenario, { now: clock.now() }),
    fleetReportCard: async () => gradeClient(stores.shared ? await fleetJournal() : journal.entries(), scenario, { now: clock.now() }),
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async reset() {
      await Promise.all([stores.tasks.clear(scenario.id), stores.ledger.clear(scenario.id), stores.replay.clear(scenario.id)]);
      core.state = structuredClone(scenario.state);
      await faults.reset();
      if (stores.shared) await stores.journal.clear(scenario.id);
      auth?.reset();
      journal.clear();
      core.emit('scenario:reset', { id: scenario.id });
    },
    close() {
      hub.endAll();
      tasks.close();
      listeners.clear();
    },
  };
}
