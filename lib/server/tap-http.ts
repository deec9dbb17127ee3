import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { StringDecoder } from 'node:string_decoder';
import { ERROR } from '../protocol';
import { isAllowedHost, isAllowedOrigin } from '../engine/guards';
import type { FaultPlan, ReplyFault } from '../engine/faults';
import type { TapObserver } from '../recording/tap-frames';
import type { TapFaults } from './tap-faults';
import { createStreamDamage, faultReply, markFaults, writeReply } from './tap-http-faults';
import { endToEnd, record } from './tap-http-headers';
/**
 * The HTTP tap: a loopback endpoint that relays every request to one upstream MCP server and
 * every response back, byte for byte and as it arrives (no SSE buffering), with every header
 * except the hop-by-hop ones. It rewrites nothing: no Loupe headers, no decoding of the relayed
 * bytes. A copy of each exchange goes to the observer (decompressed there if the upstream
 * compressed it). Nothing it relays is logged.
 */

/** A decompressor for the observer's copy of an encoded body, or undefined for identity. */
function decoderFor(encoding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  const e = (encoding ?? '').trim().toLowerCase();
  if (e === 'gzip' || e === 'x-gzip') return zlib.createGunzip();
  if (e === 'deflate') return zlib.createInflate();
  if (e === 'br') return zlib.createBrotliDecompress();
  return undefined;
}

interface HttpTapOptions {
  upstream: URL;
  host: string;
  port: number;
  observer: TapObserver;
  /** Extra Host names accepted besides loopback (DNS-rebinding guard, as for `mock`). */
  allowedHosts?: readonly string[];
  /** Diagnostics (never header values or bodies). */
  log?: (line: string) => void;
  /** Faults switched on for this tap (none: a pure relay). */
  faults?: TapFaults;
}

interface HttpTap {
  /** The local endpoint to point the client at. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Where a local request goes: the local `/mcp` is the upstream URL; other paths (OAuth discovery) are on the upstream's origin. */
function targetOf(upstream: URL, localPath: string): URL {
  const local = new URL(localPath, 'http://tap.invalid');
  const target = local.pathname === '/mcp' ? new URL(upstream) : new URL(local.pathname, upstream.origin);
  for (const [k, v] of local.searchParams) target.searchParams.append(k, v);
  return target;
}

/** A JSON-RPC error answer from the tap itself: -32603 by default, -32600 for a request refused as mock refuses it. */
function refuse(res: http.ServerResponse, status: number, message: string, code: number = ERROR.internalError): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

/** Start the HTTP tap; resolves once it listens. */
export function startHttpTap(options: HttpTapOptions): Promise<HttpTap> {
  const agentOptions = { keepAlive: true };
  const agent = options.upstream.protocol === 'https:' ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  const requestFn = options.upstream.protocol === 'https:' ? https.request : http.request;

  /**
   * Relay one request. Without faults the body streams to the upstream as it arrives; with
   * faults switched on it was read whole first (`buffered`) so the plan could see its method.
   */
  function relay(req: http.IncomingMessage, res: http.ServerResponse, buffered?: Buffer, plan?: FaultPlan): void {
    const seen = options.observer.http();
    const target = targetOf(options.upstream, req.url ?? '/');
    const headers = endToEnd(req.rawHeaders);
    headers.push('Host', target.host);
    const body: Buffer[] = [];
    let finished = false;
    const observeRequest = (raw: Buffer) => seen.request(req.method ?? 'GET', record(headers.slice(0, -2)), raw.toString('utf8'));
    let markStream: (note?: string) => void = () => {};
    if (buffered) {
      observeRequest(buffered);
      if (plan && options.faults) markStream = markFaults(options.faults.marks(plan), (m) => seen.fault(m));
    }
    const upstream = requestFn(target, { method: req.method, headers, agent }, (up) => {
      const relayed = endToEnd(up.rawHeaders);
      res.writeHead(up.statusCode ?? 502, up.statusMessage, relayed);
      const plain = record(relayed);
      const sse = (plain['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');
      // A stream's head goes out at once (a listen stream may stay silent); any other head leaves
      // with the first body bytes, in one write.
      if (sse) res.flushHeaders();
      seen.response(up.statusCode ?? 502, plain);
      const inflate = decoderFor(plain['content-encoding']);
      // Stream faults rewrite SSE text, so they skip a compressed stream (it is relayed as is).
      const damage = sse && !inflate && plan?.stream.length ? createStreamDamage(plan.stream) : undefined;
      markStream(damage ? undefined : sse ? 'a compressed stream is relayed as is: not applied' : 'the answer was not an SSE stream: not applied');
      const text = new StringDecoder('utf8');
      if (inflate) {
        inflate.on('data', (c: Buffer) => seen.chunk(text.write(c)));
        inflate.on('error', () => {});
      }
      up.on('data', (c: Buffer) => {
        if (damage) {
          const out = damage.write(text.write(c));
          if (out) seen.chunk(out);
          if (damage.state === 'cut' && !finished) {
            finished = true;
            seen.end('upstream-failed', 'the tap cut the stream (a fault)');
            up.destroy();
            // What came before the cut reaches the client first (a destroy drops unflushed writes).
            if (out) res.write(out, () => res.destroy());
            else res.destroy();
          } else if (out) res.write(out);
          return;
        }
        res.write(c);
        if (inflate) inflate.write(c);
        else seen.chunk(text.write(c));
      });
      up.on('end', () => {
        // A stalled stream stays open and silent until the client gives up.
        if (finished || damage?.state === 'stalled') return;
        finished = true;
        res.end();
        const done = () => {
          if (!damage) seen.chunk(text.end());
          seen.end('done');
        };
        if (inflate) inflate.end(done);
        else done();
      });
      up.on('error', (e) => {
        if (finished) return;
        finished = true;
        seen.end('upstream-failed', e.message);
        res.destroy(e);
      });
    });
    upstream.on('error', (e) => {
      markStream('the upstream never answered: not applied');
      if (finished) return;
      finished = true;
      options.log?.(`upstream ${target.origin}: ${e.message}`);
      seen.end('upstream-failed', e.message);
      if (!res.headersSent) refuse(res, 502, `Bad gateway: the tap could not reach the upstream (${e.message})`);
      else res.destroy(e);
    });
    if (buffered) upstream.end(buffered);
    else {
      req.on('data', (c: Buffer) => {
        body.push(c);
        upstream.write(c);
      });
      req.on('end', () => {
        observeRequest(Buffer.concat(body));
        upstream.end();
      });
    }
    // The client left before the upstream finished (a cancelled request, a closed listen stream).
    res.on('close', () => {
      if (finished) return;
      finished = true;
      upstream.destroy();
      seen.end('client-closed');
    });
  }

  /** A fault answers in the server's place: the upstream never sees the request. */
  function answer(req: http.IncomingMessage, res: http.ServerResponse, buffered: Buffer, plan: FaultPlan & { reply: ReplyFault }): void {
    const seen = options.observer.http();
    const raw = buffered.toString('utf8');
    seen.request(req.method ?? 'GET', record(endToEnd(req.rawHeaders)), raw);
    if (options.faults) seen.fault(options.faults.marks(plan));
    let rpcId: unknown;
    try {
      rpcId = (JSON.parse(raw) as { id?: unknown }).id;
    } catch {
      rpcId = undefined;
    }
    const reply = faultReply(plan.reply, rpcId);
    writeReply(res, reply);
    seen.response(reply.status, reply.headers);
    seen.chunk(reply.body);
    seen.end('done');
  }

  const server = http.createServer((req, res) => {
    if (!isAllowedHost(req.headers.host ?? null, options.allowedHosts))
      return refuse(res, 403, 'Forbidden: the tap only answers loopback Host names', ERROR.invalidRequest);
    // The mock's Origin rule, before anything is read, relayed or observed: a page of another site
    // would otherwise reach the upstream with the user's standing and land in their recording.
    if (!isAllowedOrigin(req.headers.origin ?? null, req.headers.host ?? null))
      return refuse(res, 403, 'Forbidden: Origin is not allowed (the tap answers only pages on loopback, as mock does)', ERROR.invalidRequest);
    const faults = options.faults;
    if (!faults?.active()) return relay(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const buffered = Buffer.concat(chunks);
      const plan = faults.plan(buffered.toString('utf8'));
      const go = () => {
        if (res.destroyed) return;
        if (plan?.reply) answer(req, res, buffered, { ...plan, reply: plan.reply });
        else relay(req, res, buffered, plan);
      };
      if (plan?.delayMs) setTimeout(go, plan.delayMs);
      else go();
    });
  });
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      const shown = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({
        url: `http://${shown}:${port}/mcp`,
        port,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            agent.destroy();
            server.close(() => r());
          }),
      });
    });
  });
}
