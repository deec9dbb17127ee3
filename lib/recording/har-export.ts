import { frameText, type Frame } from '../client/frames';
import { groupExchanges, type RecordedExchange } from './exchanges';
import type { HarFrameMeta, HarHeader } from './har-schema';
import type { Recording } from './schema';

/**
 * HAR 1.2 export: one entry per HTTP exchange, with request and response headers, the
 * JSON-RPC request as postData and the response body as content (an SSE answer as its
 * event-stream text). Any HAR viewer reads it; Loupe reads it back exactly thanks to the
 * `_loupe` extras (frame timings and ids per entry, recording metadata per log).
 */

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

const toHeaders = (h: Record<string, string> | undefined): HarHeader[] => Object.entries(h ?? {}).map(([name, value]) => ({ name, value }));

/** The event-stream text of SSE frames and comments, in order. */
function sseText(frames: readonly Frame[]): string {
  let out = '';
  for (const f of frames) {
    if (f.kind === 'sse-frame')
      out += `${(frameText(f) ?? '')
        .split('\n')
        .map((l) => `data: ${l}`)
        .join('\n')}\n\n`;
    else if (f.kind === 'sse-comment') out += `: ${f.raw ?? ''}\n\n`;
  }
  return out;
}

function meta(f: Frame): HarFrameMeta {
  const { headers: _h, body: _b, raw: _r, ...rest } = f;
  return rest;
}

function queryString(url: string): { name: string; value: string }[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function cookiesOf(headers: Record<string, string> | undefined): { name: string; value: string }[] {
  const cookie = headers?.cookie;
  if (!cookie) return [];
  return cookie
    .split(/;\s*/)
    .map((p) => p.split('='))
    .flatMap(([name, ...v]) => (name !== undefined && v.length ? [{ name, value: v.join('=') }] : []));
}

function entryOf(x: RecordedExchange, frames: readonly Frame[], target: string): Record<string, unknown> {
  const req = x.request;
  // An authorization step went to its own URL (metadata, token endpoint...), not the MCP server.
  const url = req.auth?.url ?? target;
  const reqText = frameText(req);
  const head = x.head;
  // Auth steps carry their answer's body on the response frame itself.
  const body =
    req.lane === 'auth' && head
      ? (frameText(head) ?? '')
      : x.streamed
        ? sseText(x.incoming)
        : x.incoming
            .filter((f) => f.kind === 'message')
            .map((f) => frameText(f) ?? '')
            .join('');
  const mime = head?.headers?.['content-type'] ?? (x.streamed ? 'text/event-stream' : 'application/json');
  const error = x.incoming.find((f) => f.kind === 'error')?.errorText;
  const reqBytes = req.bytes;
  const respBytes = new TextEncoder().encode(body).byteLength;
  const wait = head ? Math.max(0, head.at - req.at) : Math.max(0, x.endAt - x.startAt);
  const receive = head ? Math.max(0, x.endAt - head.at) : 0;
  return {
    startedDateTime: new Date(req.at).toISOString(),
    time: wait + receive,
    request: {
      method: req.auth?.method ?? (reqText === undefined ? 'GET' : 'POST'),
      url,
      httpVersion: 'HTTP/1.1',
      cookies: cookiesOf(req.headers),
      headers: toHeaders(req.headers),
      queryString: queryString(url),
      ...(reqText !== undefined ? { postData: { mimeType: req.headers?.['content-type'] ?? 'application/json', text: reqText } } : {}),
      headersSize: -1,
      bodySize: reqBytes,
    },
    response: {
      status: head?.httpStatus ?? 0,
      statusText: head?.httpStatus !== undefined ? (STATUS_TEXT[head.httpStatus] ?? '') : '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: toHeaders(head?.headers),
      content: { size: respBytes, mimeType: mime, text: body },
      redirectURL: '',
      headersSize: -1,
      bodySize: head ? respBytes : -1,
      ...(error ? { _error: error } : {}),
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait, receive },
    _resourceType: 'fetch',
    _loupe: { frames: frames.map(meta) },
  };
}

/** A HAR 1.2 document of a recording (redact first: a HAR holds every header and body). */
export function toHar(recording: Recording): Record<string, unknown> {
  const key = (f: { connectionId: string; exchangeId: string }) => `${f.connectionId}\u0000${f.exchangeId}`;
  const exchanges = groupExchanges(recording.frames).filter((x) => x.request.kind === 'http-request');
  const inHar = new Set(exchanges.map(key));
  const byExchange = new Map<string, Frame[]>();
  const otherFrames: Frame[] = [];
  for (const f of recording.frames) {
    const k = key(f);
    if (f.kind === 'bridge' || !inHar.has(k)) otherFrames.push(f);
    else {
      const g = byExchange.get(k);
      if (g) g.push(f);
      else byExchange.set(k, [f]);
    }
  }
  return {
    log: {
      version: '1.2',
      creator: { name: recording.app.name, version: recording.app.version, comment: 'Loupe (mcp-loupe) recording export' },
      pages: [],
      entries: exchanges.map((x) => entryOf(x, byExchange.get(key(x)) ?? [], recording.connection.target)),
      comment: `MCP session against ${recording.connection.target}${recording.redaction ? ' (secrets replaced by pseudonyms)' : ''}`,
      _loupe: {
        createdAt: recording.createdAt,
        app: recording.app,
        connection: recording.connection,
        otherFrames,
        apps: recording.apps,
        views: recording.views,
        lints: recording.lints,
        ...(recording.redaction ? { redaction: recording.redaction } : {}),
      },
    },
  };
}
