import { MRTR_METHODS, RESULT_TYPE } from '../constants';
import { ToolSchema, type Tool } from '../tools';
import { ServerCapabilitiesSchema } from '../meta';
import { lintExchange } from './exchange';
import { show, viewOf, type Exchange, type Lint, type LintContext, type PreviousInputRequired, type Report, type View } from './model';
import { createReporter } from './rules';
import { asRecord } from '../../shared/records';
import { checkTaskResultSchema, checkToolSchemas, type SchemaValidator } from './schemas';
import { noteListenAck, notePushedTask, trackCancelled, trackListenFrames, trackTasks, type TaskSession } from './task-sequence';

/**
 * Rules over a session: which `input_required` a retry continues and one cacheScope across the
 * pages of a list; the task rules (poll cadence, terminal states, tasks/update keys) are in
 * task-sequence.ts. Context (discover capabilities, tools) is learned from the exchanges as
 * they go by.
 */

const LIST_METHODS = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);

interface Conversation {
  key: string;
  prev: PreviousInputRequired;
}

interface SessionState extends TaskSession {
  ctx: LintContext;
  conversations: Conversation[];
  pages: Map<string, { nextCursor?: unknown; cacheScope?: unknown }>;
  /** The tools list this session built (and may grow in place). */
  ownTools?: Tool[];
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
    // The list grows in place, a page at a time: copying it on every page made a 100,000-tool
    // listing quadratic. A first page (no cursor) starts a new list.
    // A list the caller gave in the base context is copied once, never grown in place.
    const earlier = s.ctx.tools ?? [];
    const tools: Tool[] = v.params.cursor === undefined ? [] : earlier === s.ownTools ? earlier : [...earlier];
    for (const t of r.tools) {
      const parsed = ToolSchema.safeParse(t);
      if (parsed.success) tools.push(parsed.data);
    }
    s.ownTools = tools;
    if (tools !== s.ctx.tools) s.ctx = { ...s.ctx, tools };
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

/** What a caller adds to the rules: a JSON Schema validator turns on the tool schema checks. */
interface LintOptions {
  validateSchema?: SchemaValidator;
}

/** A session being linted exchange by exchange (what `lintAll` walks), for live use. */
export interface LintSession {
  /** Lint the next exchange of the session: its own lints and the sequence findings on it. */
  lint(ex: Exchange): Lint[];
  /**
   * A server message that arrived on a stream at `at`, before its exchange completed (a
   * notifications/tasks on a listen): later exchanges are linted against what it showed.
   */
  notice(message: unknown, at: number): void;
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
export function createLintSession(base: LintContext = {}, options: LintOptions = {}): LintSession {
  const { previousInputRequired: _ignored, ...rest } = base;
  const s: SessionState = { ctx: rest, conversations: [], tasks: new Map(), taskRequests: new Map(), pages: new Map() };
  return {
    notice(message, at) {
      const m = asRecord(message);
      const params = asRecord(m?.params);
      if (m?.method === 'notifications/tasks' && params) notePushedTask(s, params, at);
      if (m?.method === 'notifications/subscriptions/acknowledged' && params) noteListenAck(s, params, at);
    },
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
      if (options.validateSchema) {
        checkToolSchemas(v, options.validateSchema, report);
        const taskId = v.params.taskId;
        if (typeof taskId === 'string') checkTaskResultSchema(v, s.tasks.get(taskId)?.tool, options.validateSchema, report);
      }
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
export function lintAll(exchanges: Exchange[], base: LintContext = {}, options: LintOptions = {}): Lint[][] {
  const session = createLintSession(base, options);
  return exchanges.map((ex) => session.lint(ex));
}
