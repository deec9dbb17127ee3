// The tap's cost: the same tools/call sent to the CLI mock directly and through `mcp-loupe tap`
// (recording on, as it is used), over HTTP and over stdio, in interleaved rounds so a noisy moment
// hits both alike. Sequential requests; added latency at the median and at p99.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { body, headers, percentile, startProcess } from './lib.mjs';

const CALL = { name: 'test_simple_text', arguments: {} };

async function timeHttp(url, n, offset) {
  const lat = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    const res = await fetch(url, { method: 'POST', headers: headers('tools/call', 'test_simple_text'), body: body(offset + i, 'tools/call', CALL) });
    const text = await res.text();
    lat.push(performance.now() - s);
    if (res.status !== 200 || !text.includes('simple text response')) throw new Error(`answered ${res.status}: ${text.slice(0, 200)}`);
  }
  return lat;
}

/** A stdio server process and a way to send one request and wait for its answer line. */
function stdioPeer(args) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  let buffer = '';
  let waiting;
  child.stdout.on('data', (d) => {
    buffer += d;
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (waiting && line.includes(`"id":${waiting.id}`)) {
        const w = waiting;
        waiting = undefined;
        if (!line.includes('simple text response')) w.reject(new Error(`answered: ${line.slice(0, 200)}`));
        else w.resolve();
      }
    }
  });
  return {
    call: (id) =>
      new Promise((resolve, reject) => {
        waiting = { id, resolve, reject };
        child.stdin.write(`${body(id, 'tools/call', CALL)}\n`);
      }),
    stop: () =>
      new Promise((resolve) => {
        child.once('close', resolve);
        child.stdin.end();
      }),
  };
}

async function timeStdio(peer, n, offset) {
  const lat = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await peer.call(offset + i);
    lat.push(performance.now() - s);
  }
  return lat;
}

function summary(direct, tapped) {
  const r = (x) => +x.toFixed(3);
  const d50 = percentile(direct, 50);
  const t50 = percentile(tapped, 50);
  const d99 = percentile(direct, 99);
  const t99 = percentile(tapped, 99);
  return { samples: direct.length, directP50: r(d50), tapP50: r(t50), addedP50: r(t50 - d50), directP99: r(d99), tapP99: r(t99), addedP99: r(t99 - d99) };
}

/** Interleave `rounds` rounds of `per` requests on both paths, after a warm-up of each. */
async function interleaved(direct, tapped, per, rounds = 3) {
  await direct(100, 1e6);
  await tapped(100, 2e6);
  const d = [];
  const t = [];
  for (let round = 0; round < rounds; round++) {
    d.push(...(await direct(per, 3e6 + round * per)));
    t.push(...(await tapped(per, 4e6 + round * per)));
  }
  return summary(d, t);
}

export async function tapOverhead({ root, dataDir, samples = 900 }) {
  const cli = path.join(root, 'dist/cli.mjs');
  const mock = await startProcess(process.execPath, [cli, 'mock', 'conformance', '--port', '0', '--store', 'memory'], { cwd: root });
  let tap;
  const out = {};
  try {
    const target = mock.url.replace(/\/mcp$/, '/mcp/conformance');
    tap = await startProcess(process.execPath, [cli, 'tap', '--upstream', target, '--port', '0', '--record', `${dataDir}/tap-http.loupe.json`], { cwd: root });
    out.http = await interleaved(
      (n, o) => timeHttp(target, n, o),
      (n, o) => timeHttp(tap.url, n, o),
      samples / 3,
    );
  } finally {
    await tap?.stop();
    await mock.stop();
  }
  const server = [cli, 'mock', 'conformance', '--stdio', '--store', 'memory'];
  const direct = stdioPeer(server);
  const tapped = stdioPeer([cli, 'tap', '--record', `${dataDir}/tap-stdio.loupe.json`, '--', process.execPath, ...server]);
  try {
    out.stdio = await interleaved(
      (n, o) => timeStdio(direct, n, o),
      (n, o) => timeStdio(tapped, n, o),
      samples / 3,
    );
  } finally {
    await Promise.all([direct.stop(), tapped.stop()]);
  }
  return out;
}
