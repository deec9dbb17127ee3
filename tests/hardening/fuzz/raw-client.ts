import net from 'node:net';

/**
 * One HTTP/1.1 exchange over a bare socket, so a case can send what no well-behaved client
 * would: duplicate or malformed headers, a Host that lies, a body that is not UTF-8, a body
 * trickled byte by byte. It waits for the status line only (an SSE answer never ends) and
 * reports what happened: an answer, the server cutting the connection first, or silence.
 */

/** A request as raw parts: header lines are sent as given, in order, duplicates included. */
export interface RawRequest {
  method: string;
  path: string;
  headers: readonly (readonly [string, string])[];
  body?: Uint8Array;
  /** Send the request this many bytes at a time with `trickleMs` between pieces (slowloris). */
  trickle?: { bytes: number; everyMs: number };
}

/** What came back. `reset`: the server closed or reset before any status line. */
export type RawOutcome =
  | { kind: 'answered'; status: number; ms: number; head: string }
  | { kind: 'reset'; ms: number; error: string }
  | { kind: 'hang'; ms: number };

/** The request's bytes as they go on the wire. */
export function encodeRequest(r: RawRequest): Buffer {
  const lines = [`${r.method} ${r.path} HTTP/1.1`, ...r.headers.map(([k, v]) => `${k}: ${v}`)];
  const hasLength = r.headers.some(([k]) => k.toLowerCase() === 'content-length' || k.toLowerCase() === 'transfer-encoding');
  if (r.body && !hasLength) lines.push(`Content-Length: ${r.body.byteLength}`);
  lines.push('Connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), r.body ?? Buffer.alloc(0)]);
}

/** Send one request and wait at most `hangMs` for its status line. */
export function sendRaw(port: number, r: RawRequest, hangMs: number, signal?: AbortSignal): Promise<RawOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const bytes = encodeRequest(r);
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let head = '';
    let done = false;
    let trickleTimer: NodeJS.Timeout | undefined;
    const finish = (o: RawOutcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(trickleTimer);
      socket.destroy();
      resolve(o);
    };
    const timer = setTimeout(() => finish({ kind: 'hang', ms: ms() }), hangMs);
    signal?.addEventListener('abort', () => finish({ kind: 'reset', ms: ms(), error: 'stopped by the suite' }), { once: true });
    socket.on('data', (d: Buffer) => {
      head += d.toString('latin1');
      const end = head.indexOf('\r\n');
      if (end < 0) return;
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      finish(
        m
          ? { kind: 'answered', status: Number(m[1]), ms: ms(), head: head.slice(0, 2048) }
          : { kind: 'reset', ms: ms(), error: `not HTTP: ${head.slice(0, 80)}` },
      );
    });
    socket.on('error', (e) => finish({ kind: 'reset', ms: ms(), error: e.message }));
    socket.on('close', () => finish({ kind: 'reset', ms: ms(), error: 'closed without a status line' }));
    socket.on('connect', () => {
      if (!r.trickle) {
        socket.write(bytes);
        return;
      }
      const { bytes: step, everyMs } = r.trickle;
      let at = 0;
      const next = () => {
        if (done || socket.destroyed) return;
        socket.write(bytes.subarray(at, at + step));
        at += step;
        if (at < bytes.byteLength) trickleTimer = setTimeout(next, everyMs);
      };
      next();
    });
  });
}
