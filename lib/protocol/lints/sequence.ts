import { MRTR_METHODS, RESULT_TYPE } from '../constants';
import { ToolSchema, type Tool } from '../tools';
import { ServerCapabilitiesSchema } from '../meta';
import type { TaskStatus } from '../tasks';
import { lintExchange } from './exchange';
import { maskId, show, viewOf, type Exchange, type Lint, type LintContext, type Obj, type PreviousInputRequired, type Report, type View } from './model';
import { createReporter } from './rules';
import { asRecord } from '../../shared/records';
import { isTerminalStatus } from '../../shared/task-status';

/**
 * Rules over a session: which `input_required` a retry continues, poll cadence against
 * `pollIntervalMs`, polls after a terminal status, terminal states that change, tasks/update
 * keys, and one cacheScope across the pages of a list. Context (discover capabilities, tools)
 * is learned from the exchanges as they go by.
 */

/** Polls up to this fraction early are tolerated (timer jitter). */
const POLL_TOLERANCE = 0.9;
const LIST_METHODS = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);

interface Conversation {
  key: string;
  prev: PreviousInputRequired;
}

interface TaskTrack {
  pollIntervalMs?: number;
  lastAt?: number;
  /** A tasks/update or tasks/cancel since the last poll: the next poll may come at once. */
  nudged: boolean;
  terminal?: TaskStatus;
  outstanding?: string[];
  /** When the task may be gone (createdAt + ttlMs); Infinity for unlimited; unknown when not created in this session. */
  keepUntil?: number;
}

interface SessionState {
  ctx: LintContext;
  conversations: Conversation[];
  tasks: Map<string, TaskTrack>;
  /** JSON-RPC ids (as JSON) of the tools/call requests that created a task. */
  taskRequests: Map<string, string>;
  pages: Map<string, { nextCursor?: unknown; cacheScope?: unknown }>;
}

const conversationKey = (v: View) => `${v.method}\u0000${String(v.params.name ?? v.params.uri ?? '')}`;

/** The conversation a request continues: exact requestState first, else the latest with the same target. */
function findConversation(s: SessionState, v: View): Conversation | undefined {
  const state = v.params.requestState;
  if (typeof state === 'string') {
    const exact = s.conversations.find((c) => c.prev.result.requestState === state);
    if (exact) return exact;
  }
  const key = conversationKey(v);
  return s.conversations.findLast((c) => c.key === key);
}

function learnContext(s: SessionState, v: View): void {
  const r = v.result;
  if (!r) return;
  if (v.method === 'server/discover') {
    const caps = ServerCapabilitiesSchema.safeParse(r.capabilities);
    if (caps.success) s.ctx = { ...s.ctx, serverCapabilities: caps.data };
    if (Array.isArray(r.supportedVersions)) s.ctx = { ...s.ctx, supportedVersions: r.supportedVersions.filter((x): x is string => typeof x === 'string') };
  }
  if (v.method === 'tools/list' && Array.isArray(r.tools)) {
    const page = r.tools.flatMap((t) => {
      const parsed = ToolSchema.safeParse(t);
      return parsed.success ? [parsed.data] : [];
    });
    const earlier: Tool[] = v.params.cursor === undefined ? [] : (s.ctx.tools ?? []);
    s.ctx = { ...s.ctx, tools: [...earlier, ...page] };
  }
}

function trackMrtr(s: SessionState, v: View, continued: Conversation | undefined): void {
  if (!(MRTR_METHODS as readonly string[]).includes(v.method) || !v.res) return;
  if (continued) s.conversations = s.conversations.filter((c) => c !== continued);
  const r = v.result;
  if (r?.resultType === RESULT_TYPE.inputRequired) {
    const id = typeof v.id === 'string' || typeof v.id === 'number' ? v.id : undefined;
    s.conversations.push({ key: conversationKey(v), prev: { id, method: v.method, params: v.params, result: r } });
  }
}

function observeSnapshot(t: TaskTrack, snap: Obj, path: string, report: Report): void {
  if (t.terminal && snap.status !== t.terminal)
    report('task-terminal-changed', `The task was already ${t.terminal}; it is now ${show(snap.status)} (terminal states are final)`, `${path}.status`);
  if (!t.terminal && isTerminalStatus(snap.status)) t.terminal = snap.status as TaskStatus;
  if (typeof snap.pollIntervalMs === 'number') t.pollIntervalMs = snap.pollIntervalMs;
  t.outstanding = snap.status === 'input_required' ? Object.keys(asRecord(snap.inputRequests) ?? {}) : [];
}

function trackTasks(s: SessionState, v: View, at: number | undefined, report: Report): void {
  const r = v.result;
  if (v.method === 'tools/call' && r?.resultType === RESULT_TYPE.task && typeof r.taskId === 'string') {
    const created = typeof r.createdAt === 'string' ? Date.parse(r.createdAt) : NaN;
    const keepUntil = r.ttlMs === null ? Infinity : typeof r.ttlMs === 'number' && Number.isFinite(created) ? created + r.ttlMs : undefined;
    const t: TaskTrack = { lastAt: at, nudged: false, keepUntil };
    observeSnapshot(t, r, 'response.body.result', report);
    s.tasks.set(r.taskId, t);
    s.taskRequests.set(JSON.stringify(v.id), r.taskId);
    return;
  }
  const taskId = v.params.taskId;
  if (typeof taskId !== 'string' || !v.method.startsWith('tasks/')) return;
  let t = s.tasks.get(taskId);
  if (!t) {
    t = { nudged: false };
    s.tasks.set(taskId, t);
  }
  if (v.method === 'tasks/get') {
    if (t.terminal) report('task-poll-after-terminal', `The task already reached ${t.terminal}; stop polling it`, 'request.body.params.taskId');
    else if (!t.nudged && at !== undefined && t.lastAt !== undefined && t.pollIntervalMs) {
      const gap = at - t.lastAt;
      if (gap < t.pollIntervalMs * POLL_TOLERANCE)
        report('task-poll-too-fast', `Polled ${gap} ms after the previous look; pollIntervalMs is ${t.pollIntervalMs}`, 'request.body.params.taskId');
    }
    const lost = v.error?.code === -32602 && t.keepUntil !== undefined && (t.keepUntil === Infinity || (at !== undefined && at < t.keepUntil));
    if (lost)
      report(
        'task-lost',
        'tasks/get answers -32602 for a task this session created and whose ttlMs has not elapsed; a task must stay retrievable from creation until its ttlMs',
        'response.body.error',
      );
    if (at !== undefined) t.lastAt = at;
    t.nudged = false;
    if (r && typeof r.status === 'string') observeSnapshot(t, r, 'response.body.result', report);
    return;
  }
  if (v.method === 'tasks/update' && t.outstanding) {
    const unknown = Object.keys(asRecord(v.params.inputResponses) ?? {}).filter((k) => !t.outstanding!.includes(k));
    if (unknown.length)
      report(
        'task-update-unknown-key',
        `tasks/update answers ${unknown.map((k) => `"${k}"`).join(', ')}, which the task is not waiting for (outstanding: ${t.outstanding.join(', ') || 'none'})`,
        'request.body.params.inputResponses',
      );
  }
  if (v.method === 'tasks/cancel' && t.terminal && v.error?.code === -32602) {
    report(
      'task-cancel-terminal-rejected',
      `The task had already reached ${t.terminal}; 2026-07-28 acknowledges a cancel of a finished task like any other ({resultType: "complete"})`,
      'response.body.error',
    );
  }
  t.nudged = true;
}

/** notifications/cancelled must never target the request that created a task (use tasks/cancel). */
function trackCancelled(s: SessionState, v: View, report: Report): void {
  if (v.method !== 'notifications/cancelled') return;
  const taskId = s.taskRequests.get(JSON.stringify(v.params.requestId));
  if (taskId)
    report(
      'task-cancel-by-notification',
      `notifications/cancelled names the request that created task ${maskId(taskId)}; tasks are cancelled with tasks/cancel`,
      'request.body.params.requestId',
    );
}

/** Terminal states seen on one listen stream must not change either. */
function trackListenFrames(v: View, report: Report): void {
  if (v.method !== 'subscriptions/listen') return;
  const seen = new Map<string, TaskTrack>();
  v.frames.forEach((f, i) => {
    const m = asRecord(f);
    const p = asRecord(m?.params);
    if (m?.method !== 'notifications/tasks' || !p || typeof p.taskId !== 'string') return;
    const t = seen.get(p.taskId) ?? { nudged: false };
    seen.set(p.taskId, t);
    observeSnapshot(t, p, `frames[${i}].params`, report);
  });
}

function trackPages(s: SessionState, v: View, report: Report): void {
  const r = v.result;
  if (!LIST_METHODS.has(v.method) || !r) return;
  const before = s.pages.get(v.method);
  const cursor = v.params.cursor;
  if (cursor !== undefined && before && before.nextCursor === cursor && before.cacheScope !== r.cacheScope) {
    report(
      'cache-scope-inconsistent',
      `This page of ${v.method} is ${show(r.cacheScope)} but the previous page was ${show(before.cacheScope)}; all pages share one cacheScope`,
      'response.body.result.cacheScope',
    );
  }
  s.pages.set(v.method, { nextCursor: r.nextCursor, cacheScope: r.cacheScope });
}

/** A session being linted exchange by exchange (what `lintAll` walks), for live use. */
export interface LintSession {
  /** Lint the next exchange of the session: its own lints and the sequence findings on it. */
  lint(ex: Exchange): Lint[];
}

/** Tasks, requests and conversations a live session remembers; the oldest are forgotten first. */
const SESSION_MEMORY = 1000;

function forgetOldest<K, V>(map: Map<K, V>): void {
  if (map.size > SESSION_MEMORY) map.delete(map.keys().next().value as K);
}

/**
 * Start linting a session whose exchanges arrive one at a time. It remembers what the sequence
 * rules need (at most the last 1,000 tasks and open conversations), so a long session costs
 * constant time and memory per exchange.
 */
export function createLintSession(base: LintContext = {}): LintSession {
  const { previousInputRequired: _ignored, ...rest } = base;
  const s: SessionState = { ctx: rest, conversations: [], tasks: new Map(), taskRequests: new Map(), pages: new Map() };
  return {
    lint(ex) {
      const out: Lint[] = [];
      const report = createReporter(out);
      const plain = viewOf(ex, s.ctx);
      let continued: Conversation | undefined;
      const carries = plain.params.requestState !== undefined || plain.params.inputResponses !== undefined;
      if (plain.modern && plain.isRequest && carries && (MRTR_METHODS as readonly string[]).includes(plain.method)) {
        continued = findConversation(s, plain);
        if (!continued)
          report(
            'mrtr-state-unsolicited',
            `${plain.method} carries requestState/inputResponses but answers no earlier input_required (they apply only to the retry of that request)`,
            'request.body.params',
          );
      }
      const ctx: LintContext = continued ? { ...s.ctx, previousInputRequired: continued.prev } : s.ctx;
      const v = viewOf(ex, ctx);
      out.unshift(...lintExchange(ex, ctx));
      if (v.modern) {
        trackMrtr(s, v, continued);
        trackTasks(s, v, ex.at, report);
        trackCancelled(s, v, report);
        trackListenFrames(v, report);
        trackPages(s, v, report);
      }
      learnContext(s, v);
      forgetOldest(s.tasks);
      forgetOldest(s.taskRequests);
      if (s.conversations.length > SESSION_MEMORY) s.conversations.shift();
      return out;
    },
  };
}

/**
 * Lint a session in order. Returns one list per exchange (same order), holding that exchange's
 * own lints and the sequence findings that surfaced on it.
 */
export function lintAll(exchanges: Exchange[], base: LintContext = {}): Lint[][] {
  const session = createLintSession(base);
  return exchanges.map((ex) => session.lint(ex));
}
