import { rpcFields, type Frame } from '../client/frames';
import { exchangesFromFrames, gradedLints, isPushed } from '../client/lint-frames';
import { createSchemaValidator } from '../client/schema-validator';
import { createLintSession, type Lint, type LintSession } from '../protocol';
import { asRecord } from '../shared/records';

/**
 * Live lints, incrementally: frames are grouped by exchange until the exchange completes (its
 * response, its stream's close, a transport error, a 202); then that exchange is regrouped the
 * way `lintFrames` does (`exchangesFromFrames`) and linted by the connection's lint session,
 * which carries what the sequence rules need (discover capabilities, tools, MRTR
 * conversations, task cadence and terminal states) from one exchange to the next. So a long
 * session lints in constant time per exchange, and nothing is kept once an exchange is linted.
 */

interface IncrementalLinter {
  /** Watch frames; returns whether some exchange became ready to lint. */
  observe(frames: readonly Frame[]): boolean;
  /** Lint ready exchanges until `budgetMs` is used up (Infinity: all, plus incomplete ones when `all`). */
  drain(budgetMs?: number, all?: boolean): Map<string, Lint[]>;
  /** Exchanges waiting to be linted. */
  readonly backlog: number;
  /** Payload bytes held for exchanges not linted yet; drain when it grows past a few MiB. */
  readonly pendingBytes: number;
  clear(): void;
}

const MAX_FRAMES_PER_EXCHANGE = 256;
const MAX_PENDING = 2000;
const MAX_CONNECTIONS = 4;

function completes(f: Frame, rpcId: Frame['rpcId']): boolean {
  if (f.kind === 'sse-close' || f.kind === 'error') return true;
  if (f.kind === 'http-response' && (f.httpStatus === 202 || f.httpStatus === 204)) return true;
  if (f.kind === 'message' && f.direction === 'in') {
    const m = asRecord(f.body);
    return !!m && ('result' in m || 'error' in m) && (m.id === rpcId || m.id === null || rpcId === undefined);
  }
  return false;
}

/**
 * ajv's first compile on a page also compiles ajv itself (its code generator runs cold): 20-50 ms
 * in one task on a busy page, inside the lint drain that follows the first tools/call. Done once
 * while the page is idle, the first real call compiles only its own schema.
 */
function warmUp(validate: ReturnType<typeof createSchemaValidator>): void {
  if (typeof requestIdleCallback !== 'function') return;
  requestIdleCallback(
    () => validate({ type: 'object', properties: { text: { type: 'string' }, n: { type: 'integer', minimum: 0 } }, required: ['text'] }, {}),
    {
      timeout: 10_000,
    },
  );
}

/** Create a linter; frames of bridge messages are ignored (they are not MCP exchanges). */
export function createIncrementalLinter(): IncrementalLinter {
  const pending = new Map<string, Frame[]>();
  const ready = new Set<string>();
  let pendingBytes = 0;

  const sessions = new Map<string, LintSession>();
  const validateSchema = createSchemaValidator();
  warmUp(validateSchema);

  const sessionOf = (connectionId: string): LintSession => {
    let session = sessions.get(connectionId);
    if (!session) {
      session = createLintSession({}, { validateSchema });
      sessions.set(connectionId, session);
      // An old connection's sequence is of no use to new exchanges.
      if (sessions.size > MAX_CONNECTIONS) sessions.delete(sessions.keys().next().value!);
    }
    return session;
  };

  /** Lints of one exchange, or undefined for stray frames of an exchange linted already (keep its lints). */
  function lintOne(exchangeId: string): Lint[] | undefined {
    const frames = pending.get(exchangeId) ?? [];
    pending.delete(exchangeId);
    ready.delete(exchangeId);
    for (const f of frames) pendingBytes -= f.bytes;
    const [grouped] = exchangesFromFrames(frames);
    const first = frames[0];
    if (!grouped || !first) return undefined;
    try {
      return gradedLints(grouped, sessionOf(first.connectionId).lint(grouped.exchange));
    } catch {
      /* a lint rule failing on odd input must not stop the timeline */
      return [];
    }
  }

  return {
    observe(frames) {
      let any = false;
      for (const f of frames) {
        if (f.kind === 'bridge') continue;
        let group = pending.get(f.exchangeId);
        if (!group) {
          group = [];
          pending.set(f.exchangeId, group);
          if (pending.size > MAX_PENDING) ready.add(pending.keys().next().value!);
        }
        if (group.length < MAX_FRAMES_PER_EXCHANGE || f.kind === 'sse-close') {
          group.push(f);
          pendingBytes += f.bytes;
        }
        if (completes(f, f.rpcId ?? rpcFields(group[0]?.body).id)) ready.add(f.exchangeId);
        // A listen's notifications count from when they arrived, not when its stream ends.
        else if (isPushed(f)) sessionOf(f.connectionId).notice(f.body, f.at);
        any ||= ready.size > 0;
      }
      return any;
    },
    drain(budgetMs = Infinity, all = false) {
      const out = new Map<string, Lint[]>();
      const started = Date.now();
      if (all) for (const id of pending.keys()) ready.add(id);
      for (const id of ready) {
        const found = lintOne(id);
        if (found) out.set(id, found);
        if (Date.now() - started > budgetMs) break;
      }
      return out;
    },
    get backlog() {
      return ready.size;
    },
    get pendingBytes() {
      return pendingBytes;
    },
    clear() {
      pending.clear();
      ready.clear();
      pendingBytes = 0;
      sessions.clear();
    },
  };
}
