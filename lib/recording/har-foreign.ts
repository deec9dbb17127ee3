import { rpcFields, taskIdOfMessage, utf8Bytes, type Frame, type FrameKind } from '../client/frames';
import { parseSseText } from '../client/sse';
import { LEGACY_VERSIONS, META } from '../protocol';
import { asRecord } from '../shared/records';
import { describeConnection } from './connection';
import { contentText, entryHeaders, isSse, parseBody } from './har-entry';
import type { HarEntry } from './har-schema';
import type { Recording } from './schema';

/**
 * A HAR Loupe did not write (a browser's, saved while a web MCP client ran) read as a session:
 * entries whose request body is JSON-RPC become exchanges, JSON responses messages, and
 * `text/event-stream` responses SSE frames and comments; the connection is guessed from them.
 */

/** Frames of a foreign HAR entry (a browser's), or undefined when it is not an MCP exchange. */
export function foreignFrames(entry: HarEntry, connectionId: string, exchangeId: string, nextSeq: () => number): Frame[] | undefined {
  const raw = entry.request.postData?.text;
  const request = parseBody(raw).body;
  const rpc = asRecord(request);
  const sse = isSse(entry);
  if (!(rpc && rpc.jsonrpc === '2.0') && !(entry.request.method === 'GET' && sse)) return undefined;
  const start = Date.parse(entry.startedDateTime);
  if (Number.isNaN(start)) return undefined;
  const t = entry.timings ?? {};
  const pos = (v: number | undefined) => (v !== undefined && v > 0 ? v : 0);
  const headAt = start + pos(t.blocked) + pos(t.dns) + pos(t.connect) + pos(t.send) + pos(t.wait);
  const endAt = Math.max(headAt + pos(t.receive), start + pos(entry.time));
  const { method: reqMethod, id: rpcId } = rpcFields(request);
  const frames: Frame[] = [];
  const add = (kind: FrameKind, direction: 'in' | 'out', at: number, extra: Partial<Frame>) => {
    const own = rpcFields(extra.body);
    const taskId = taskIdOfMessage(extra.body) ?? (kind === 'http-request' ? undefined : taskIdOfMessage(request));
    const method = own.method ?? reqMethod;
    frames.push({
      seq: nextSeq(),
      at,
      connectionId,
      direction,
      kind,
      exchangeId,
      ...(rpcId !== undefined ? { rpcId } : {}),
      ...(method ? { method } : {}),
      ...(taskId ? { taskId } : {}),
      bytes: utf8Bytes(extra.raw),
      ...extra,
    });
  };
  add('http-request', 'out', start, {
    headers: entryHeaders(entry.request.headers),
    ...(request !== undefined ? { body: request } : {}),
    ...(raw !== undefined ? { raw } : {}),
  });
  const error = entry.response._error ?? undefined;
  if (entry.response.status === 0) {
    add('error', 'in', endAt, { errorText: error || 'the request failed (no response in the HAR)' });
    return frames;
  }
  add('http-response', 'in', headAt, { httpStatus: entry.response.status, headers: entryHeaders(entry.response.headers), durationMs: headAt - start });
  const text = contentText(entry);
  if (!sse) {
    if (text) {
      const p = parseBody(text);
      add('message', 'in', endAt, {
        raw: text,
        ...(p.body !== undefined ? { body: p.body } : {}),
        ...(p.parseError ? { errorText: `not JSON: ${p.parseError}` } : {}),
      });
    }
    return frames;
  }
  add('sse-open', 'in', headAt, { streamId: exchangeId });
  // A HAR has no per-event times: spread the events over the receive phase.
  const items = parseSseText(text ?? '');
  let answered = false;
  for (const [i, item] of items.entries()) {
    const at = Math.round(headAt + ((endAt - headAt) * (i + 1)) / (items.length + 1));
    if (item.type === 'comment') {
      add('sse-comment', 'in', at, { streamId: exchangeId, raw: item.text });
      continue;
    }
    const p = parseBody(item.event.data);
    const m = asRecord(p.body);
    if (m && m.id === rpcId && ('result' in m || 'error' in m)) answered = true;
    add('sse-frame', 'in', at, {
      streamId: exchangeId,
      raw: item.event.data,
      ...(p.body !== undefined ? { body: p.body } : {}),
      ...(p.parseError ? { errorText: `not JSON: ${p.parseError}` } : {}),
    });
  }
  const closeReason = text === undefined ? 'network-error' : answered ? 'complete' : 'server-closed';
  add('sse-close', 'in', endAt, {
    streamId: exchangeId,
    closeReason,
    durationMs: endAt - headAt,
    ...(text === undefined ? { errorText: 'the stream body is not in the HAR' } : {}),
  });
  return frames;
}

/** Connection metadata guessed from a foreign HAR's MCP entries. */
export function guessConnection(urls: string[], frames: Frame[]): Recording['connection'] {
  const counts = new Map<string, number>();
  for (const u of urls) counts.set(u, (counts.get(u) ?? 0) + 1);
  const target = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  const first = frames.find((f) => f.kind === 'http-request' && asRecord(f.body));
  const body = asRecord(first?.body);
  const params = asRecord(body?.params);
  const meta = asRecord(params?._meta);
  const version =
    first?.headers?.['mcp-protocol-version'] ??
    (typeof meta?.[META.protocolVersion] === 'string'
      ? (meta[META.protocolVersion] as string)
      : typeof params?.protocolVersion === 'string'
        ? params.protocolVersion
        : undefined);
  const clientInfo = asRecord(meta?.[META.clientInfo]) ?? asRecord(params?.clientInfo);
  const era = body?.method === 'initialize' || (version && (LEGACY_VERSIONS as readonly string[]).includes(version)) ? 'legacy' : 'modern';
  return describeConnection({
    target,
    transport: 'http',
    era,
    ...(version ? { protocolVersion: version } : {}),
    ...(typeof clientInfo?.name === 'string' && typeof clientInfo.version === 'string'
      ? { clientInfo: { name: clientInfo.name, version: clientInfo.version } }
      : {}),
  });
}
