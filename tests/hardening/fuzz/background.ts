import { setMaxListeners } from 'node:events';
import net from 'node:net';
import { encodeRequest, sendRaw } from './raw-client';

/**
 * What runs beside the fuzz cases: a healthy client calling `tools/call` in a loop (its
 * latencies are the figure the suite prints), 2,000 idle `subscriptions/listen` streams held
 * open, and slowloris connections trickling their headers or body a byte at a time.
 */

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** A well-behaved 2026-07-28 request to `/mcp`. */
function mcpRequest(port: number, id: number, method: string, params: Record<string, unknown>, name?: string) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }));
  const headers: [string, string][] = [
    ['Host', `127.0.0.1:${port}`],
    ['Content-Type', 'application/json'],
    ['Accept', 'application/json, text/event-stream'],
    ['MCP-Protocol-Version', '2026-07-28'],
    ['Mcp-Method', method],
  ];
  if (name) headers.push(['Mcp-Name', name]);
  return { method: 'POST', path: '/mcp', headers, body };
}

/**
 * The healthy client: `tools/call echo` back to back until stopped; every answer must be right.
 * A kept-alive connection the server closed as idle just as the next call went out ("other side
 * closed": on this shared machine the server can be descheduled past its 5 s keep-alive timeout)
 * is retried once on a new connection, as HTTP clients do, and counted apart.
 */
export function startHealthyClient(port: number) {
  const latencies: number[] = [];
  const failures: string[] = [];
  let retried = 0;
  let running = true;
  const call = async (id: number, text: string) => {
    const r = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'echo',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text }, _meta: META } }),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: r.status, answer: await r.text() };
  };
  const loop = (async () => {
    for (let id = 1; running; id++) {
      const text = `healthy-${id}`;
      const started = performance.now();
      try {
        const r = await call(id, text).catch((e: unknown) => {
          if (!/other side closed/.test(String((e as { cause?: unknown }).cause))) throw e;
          retried++;
          return call(id, text);
        });
        latencies.push(performance.now() - started);
        if (r.status !== 200 || !r.answer.includes(text)) failures.push(`${r.status} ${r.answer.slice(0, 200)}`);
      } catch (e) {
        failures.push(
          `no answer after ${Math.round(performance.now() - started)} ms (call ${id}): ${(e as Error).message} (${String((e as { cause?: unknown }).cause)})`,
        );
      }
    }
  })();
  return {
    latencies,
    failures,
    retried: () => retried,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** The p-th percentile (0..100) of `values`, in whole ms. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN);
}

/** Open `count` listen streams and hold them; resolves once each has its status line (or failed to). */
export async function openIdleListens(port: number, count: number) {
  const sockets: net.Socket[] = [];
  const statuses = new Map<string, number>();
  const opened = Array.from(
    { length: count },
    (_, i) =>
      new Promise<void>((resolve) => {
        const req = mcpRequest(port, i + 1, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
        const bytes = encodeRequest({ ...req, headers: req.headers });
        const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(bytes));
        sockets.push(socket);
        let head = '';
        const done = (key: string) => {
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          resolve();
        };
        socket.on('data', (d: Buffer) => {
          if (head.includes('\r\n')) return;
          head += d.toString('latin1');
          const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
          if (m) done(m[1] ?? '?');
        });
        socket.on('error', () => done('error'));
        socket.on('close', () => (head ? undefined : done('closed')));
      }),
  );
  await Promise.all(opened);
  return {
    statuses,
    /** How many are still open (the server must not drop idle listens). */
    open: () => sockets.filter((s) => !s.destroyed && !s.readableEnded).length,
    close: () => {
      for (const s of sockets) s.destroy();
    },
  };
}

/** Slowloris: `count` connections trickling a request one byte every `everyMs`, headers first. */
export function startSlowloris(port: number, count: number, everyMs: number) {
  const stop = new AbortController();
  setMaxListeners(count + 1, stop.signal);
  const body = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}');
  const outcomes = Array.from({ length: count }, (_, i) =>
    sendRaw(
      port,
      {
        method: 'POST',
        path: '/mcp',
        headers: [
          ['Host', `127.0.0.1:${port}`],
          ['Content-Type', 'application/json'],
        ],
        body,
        trickle: { bytes: 1, everyMs: everyMs * (1 + (i % 3)) },
      },
      10 * 60_000,
      stop.signal,
    ),
  );
  return { outcomes, stop: () => stop.abort() };
}
