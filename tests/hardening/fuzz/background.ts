import { spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import net from 'node:net';
import { createInterface } from 'node:readline';
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
 * The healthy client, in its own process so that the fuzzer's own work (generating cases) never
 * shows up as its latency: `tools/call echo` back to back until stopped, one JSON line per call.
 * A kept-alive connection the server closed as idle just as the next call went out ("other side
 * closed", EPIPE, ECONNRESET: on this shared machine the server can be descheduled past its 5 s keep-alive timeout)
 * is retried once on a new connection, as HTTP clients do, and counted apart.
 */
const HEALTHY_CLIENT = `
const [port, meta] = [process.argv[1], JSON.parse(process.argv[2])];
let running = true;
process.on('SIGTERM', () => (running = false));
const call = async (id, text) => {
  const r = await fetch('http://127.0.0.1:' + port + '/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'echo' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text }, _meta: meta } }),
    signal: AbortSignal.timeout(30000),
  });
  return { status: r.status, answer: await r.text() };
};
(async () => {
  for (let id = 1; running; id++) {
    const text = 'healthy-' + id;
    const started = performance.now();
    let retried = false;
    try {
      const r = await call(id, text).catch((e) => {
        if (!/other side closed|EPIPE|ECONNRESET/.test(String(e.cause))) throw e;
        retried = true;
        return call(id, text);
      });
      const ok = r.status === 200 && r.answer.includes(text);
      console.log(JSON.stringify({ ms: performance.now() - started, retried, ...(ok ? {} : { failure: r.status + ' ' + r.answer.slice(0, 200) }) }));
    } catch (e) {
      console.log(JSON.stringify({ retried, failure: 'no answer after ' + Math.round(performance.now() - started) + ' ms (call ' + id + '): ' + e.message + ' (' + String(e.cause) + ')' }));
    }
  }
  // Pipes to the parent are synchronous on Linux: every line is out before the exit.
  process.exit(0);
})();
`;

/** Start the healthy client's process against `port`. */
export function startHealthyClient(port: number) {
  const latencies: number[] = [];
  const failures: string[] = [];
  let retried = 0;
  const child = spawn(process.execPath, ['-e', HEALTHY_CLIENT, String(port), JSON.stringify(META)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const r = JSON.parse(line) as { ms?: number; retried: boolean; failure?: string };
    if (r.retried) retried++;
    if (r.failure) failures.push(r.failure);
    else if (r.ms !== undefined) latencies.push(r.ms);
  });
  return {
    latencies,
    failures,
    retried: () => retried,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
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
  const open = (i: number) =>
    new Promise<void>((resolve) => {
      const req = mcpRequest(port, i + 1, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
      const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(encodeRequest(req)));
      sockets.push(socket);
      let head = '';
      let counted = false;
      const done = (key: string) => {
        if (counted) return;
        counted = true;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        resolve();
      };
      socket.on('data', (d: Buffer) => {
        if (counted) return;
        head += d.toString('latin1');
        const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
        if (m) done(m[1] ?? '?');
      });
      socket.on('error', (e) => done(`error ${e.message}`));
      socket.on('close', () => done('closed'));
    });
  // A hundred at a time: they are all held together, but 2,000 SYNs at once overflow the listen backlog.
  for (let i = 0; i < count; i += 100) await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, j) => open(i + j)));
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
