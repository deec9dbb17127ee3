import { isAllowedHost, isAllowedOrigin } from '../engine/guards';
import { createReplay, type ReplayOptions } from '../recording/replay';
import type { Recording } from '../recording/schema';
import { HEALTH_PATH, healthResponse } from './healthz';

/**
 * A recording served over HTTP (`mcp-loupe replay`, the replay button): the same transport
 * guards as the mock endpoint (loopback Host or an allowed name against DNS rebinding, a
 * present Origin must be allowed, POST with a JSON body under the size cap), then the replay
 * handler. Any path answers, so the client can keep the endpoint path it was recorded with;
 * `GET /healthz` is the liveness check of `mcp-loupe replay`.
 */

interface ReplayServerOptions extends ReplayOptions {
  allowedHosts?: string[];
  allowedOrigins?: string[];
  maxBodyBytes?: number;
}

const refuse = (status: number, message: string, extra: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message } }), {
    status,
    headers: { 'Content-Type': 'application/json', ...extra },
  });

/** A guarded fetch handler replaying `recording`. */
export function createReplayServerHandler(
  recording: Recording,
  options: ReplayServerOptions = {},
): { fetch: (req: Request) => Promise<Response>; exchanges: number; reset: () => void } {
  const replay = createReplay(recording, options);
  const max = options.maxBodyBytes ?? 4 * 1024 * 1024;
  return {
    exchanges: replay.exchanges,
    reset: replay.reset,
    async fetch(req) {
      // GET /healthz is the server's; a recorded endpoint of that name still answers POST.
      const health = new URL(req.url).pathname === HEALTH_PATH ? healthResponse(req, options.allowedHosts) : undefined;
      if (health) return health;
      const host = req.headers.get('host') ?? new URL(req.url).host;
      if (!isAllowedHost(host, options.allowedHosts)) return refuse(403, 'Forbidden: Host header is not a loopback name or an allowed host');
      if (!isAllowedOrigin(req.headers.get('origin'), host, options.allowedOrigins)) return refuse(403, 'Forbidden: Origin is not allowed');
      if (req.method !== 'POST') return refuse(405, `Method Not Allowed: ${req.method}; a replayed recording accepts POST only`, { Allow: 'POST' });
      const [mediaType = ''] = (req.headers.get('content-type') ?? '').split(';');
      const ctype = mediaType.trim().toLowerCase();
      if (ctype !== 'application/json') return refuse(415, `Unsupported Media Type: Content-Type must be application/json, got "${ctype || 'none'}"`);
      const declared = Number(req.headers.get('content-length') ?? NaN);
      if (Number.isFinite(declared) && declared > max) return refuse(413, `Payload Too Large: the body exceeds ${max} bytes`, { Connection: 'close' });
      const bytes = await req.arrayBuffer();
      if (bytes.byteLength > max) return refuse(413, `Payload Too Large: the body exceeds ${max} bytes`, { Connection: 'close' });
      return replay.fetch(new Request(req.url, { method: 'POST', headers: req.headers, body: bytes, signal: req.signal }));
    },
  };
}
