import { HEADER, LEGACY_VERSIONS, LINT_RULES, META, createLintSession, type Exchange, type Lint, type LintContext } from '../protocol';
import type { Frame } from './frames';
import { asRecord } from '../shared/records';
import { createSchemaValidator } from './schema-validator';

/**
 * Live lints over tracked frames: regroup the frames of each exchange (request, response head,
 * JSON body or SSE frames) into the `Exchange` the lints read, lint the session in order, and
 * key the findings by `exchangeId` so the timeline can show them on the right entries.
 */

/** The exchange rebuilt from the frames of one exchangeId. */
interface FrameExchange {
  exchangeId: string;
  exchange: Exchange;
  /** The tap damaged or replaced the server's side of it (a fault other than latency). */
  faulted: boolean;
}

const party = LINT_RULES as Record<string, { party: 'client' | 'server' } | undefined>;

/**
 * The lints that grade an exchange: where the tap injected a fault into the answer, what the
 * client got is not the server's doing, so the server's rules are not held against it there.
 * The client's rules still apply (how it copes with a 503 is what the fault is there to test).
 */
export function gradedLints(g: FrameExchange, lints: Lint[]): Lint[] {
  return g.faulted ? lints.filter((l) => party[l.id]?.party === 'client') : lints;
}

/**
 * Era of a request as sent: a legacy version header or a handshake without modern `_meta` means
 * 2025-11-25, and so does any request without modern `_meta` on a connection that opened with
 * `initialize` (stdio has no headers to tell).
 */
function eraOf(body: Record<string, unknown> | undefined, headers: Record<string, string> | undefined, initialized = false): Exchange['era'] {
  const version = Object.entries(headers ?? {})
    .find(([k]) => k.toLowerCase() === HEADER.protocolVersion.toLowerCase())?.[1]
    ?.trim();
  if (version && (LEGACY_VERSIONS as readonly string[]).includes(version)) return 'legacy';
  const meta = asRecord(asRecord(body?.params)?._meta);
  if (meta && META.protocolVersion in meta) return 'modern';
  return initialized || body?.method === 'initialize' || (headers && Object.keys(headers).some((k) => k.toLowerCase() === HEADER.sessionId.toLowerCase()))
    ? 'legacy'
    : 'modern';
}

/** Group frames into exchanges, in the order their first frame appears. Bridge frames are not MCP exchanges. */
export function exchangesFromFrames(frames: readonly Frame[]): FrameExchange[] {
  const groups = new Map<string, Frame[]>();
  for (const f of frames) {
    if (f.kind === 'bridge') continue;
    const g = groups.get(f.exchangeId);
    if (g) g.push(f);
    else groups.set(f.exchangeId, [f]);
  }
  const out: FrameExchange[] = [];
  const initialized = new Set<string>();
  for (const [exchangeId, group] of groups) {
    const sent = group.find((f) => f.direction === 'out' && (f.kind === 'http-request' || f.kind === 'message'));
    // Only the stdio tap groups server lines under no request (those that came while none was open).
    const orphan = !sent && group.some((f) => f.kind === 'message') && !group.some((f) => f.kind === 'http-response' || f.kind.startsWith('sse-'));
    if (!sent && !orphan) continue;
    const body = asRecord(sent?.body);
    const head = group.find((f) => f.kind === 'http-response');
    const id = body?.id;
    const http = sent?.kind === 'http-request';
    let response: unknown;
    const streamed: unknown[] = [];
    for (const f of group) {
      if (f.direction !== 'in' || (f.kind !== 'message' && f.kind !== 'sse-frame')) continue;
      const m = f.body !== undefined ? asRecord(f.body) : undefined;
      // Over stdio a second answer to the same id is a line of its own, answering nothing pending.
      const answers = m && ('result' in m || 'error' in m) && (m.id === id || (f.kind === 'message' && m.id === null));
      if (answers && (http || response === undefined)) response = m;
      // A stdio line that is not JSON is kept as its text: the lints name it.
      else if (f.kind === 'sse-frame' || f.body !== undefined || (!http && f.errorText !== undefined && f.raw)) streamed.push(f.body ?? f.raw);
    }
    const connectionId = (sent ?? group[0]!).connectionId;
    if (body?.method === 'initialize') initialized.add(connectionId);
    // A request body that is not JSON is kept as its text (a GET has neither body nor text).
    const requestBody = sent?.body !== undefined ? sent.body : sent?.errorText !== undefined ? sent.raw : undefined;
    const exchange: Exchange = {
      method: typeof body?.method === 'string' ? body.method : (sent?.method ?? ''),
      ...(sent ? { request: { body: requestBody, ...(sent.headers ? { headers: sent.headers } : {}) } } : {}),
      ...(head || response !== undefined
        ? {
            response: {
              ...(head?.httpStatus !== undefined ? { status: head.httpStatus } : {}),
              ...(head?.headers ? { headers: head.headers } : {}),
              ...(response !== undefined ? { body: response } : {}),
            },
          }
        : {}),
      frames: streamed,
      era: eraOf(body, sent?.headers, initialized.has(connectionId)),
      transport: http ? 'http' : 'stdio',
      at: (sent ?? group[0]!).at,
    };
    const faulted = group.some((f) => f.kind === 'fault' && f.fault?.kind !== 'latency' && f.fault?.note === undefined);
    out.push({ exchangeId, exchange, faulted });
  }
  return out;
}

/** Lint a tracked session; the result maps each exchangeId to its lints (empty lists included). */
export function lintFrames(frames: readonly Frame[], context?: LintContext): Map<string, Lint[]> {
  const session = createLintSession(context, { validateSchema: createSchemaValidator() });
  // Pushed task snapshots and listen acks count from when they arrived, as in the live timeline:
  // each is noticed before the first exchange sent after it is linted.
  const pushed = frames.filter(isPushed).sort((a, b) => a.at - b.at);
  let next = 0;
  const out = new Map<string, Lint[]>();
  for (const g of exchangesFromFrames(frames)) {
    const at = g.exchange.at ?? Infinity;
    for (; next < pushed.length && pushed[next]!.at <= at; next++) session.notice(pushed[next]!.body, pushed[next]!.at);
    out.set(g.exchangeId, gradedLints(g, session.lint(g.exchange)));
  }
  return out;
}

/** A server message on a stream that later exchanges are linted against (see LintSession.notice). */
export function isPushed(f: Frame): boolean {
  return f.kind === 'sse-frame' && f.direction === 'in' && (f.method === 'notifications/tasks' || f.method === 'notifications/subscriptions/acknowledged');
}
