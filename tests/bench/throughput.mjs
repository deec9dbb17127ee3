// tools/call throughput: bare node:http (ceiling), the SDK v2, Loupe's CLI mock, and Loupe's app server (run.mjs adds it, as npm start serves it).
import autocannon from 'autocannon';
import fs from 'node:fs';
import { body, headers, startProcess } from './lib.mjs';

/**
 * CPU time (user + system) a process has used, in µs, or undefined where /proc cannot tell. On a
 * shared machine req/s moves with everyone else's load; the server's CPU per request moves less.
 */
function cpuMicros(pid) {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100 Hz on Linux).
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

export async function runTarget(name, url, { duration = 6, connections = 16, pid } = {}) {
  const check = await fetch(url, {
    method: 'POST',
    headers: headers('tools/call', 'test_simple_text'),
    body: body(1, 'tools/call', { name: 'test_simple_text', arguments: {} }),
  });
  const text = await check.text();
  if (check.status !== 200 || !text.includes('simple text response')) throw new Error(`${name} answered ${check.status}: ${text.slice(0, 200)}`);
  // Warm up, then measure.
  await autocannon({
    url,
    method: 'POST',
    headers: headers('tools/call', 'test_simple_text'),
    body: body(1, 'tools/call', { name: 'test_simple_text', arguments: {} }),
    connections,
    duration: 2,
  });
  const cpuBefore = cpuMicros(pid);
  const r = await autocannon({
    url,
    method: 'POST',
    headers: headers('tools/call', 'test_simple_text'),
    body: body(1, 'tools/call', { name: 'test_simple_text', arguments: {} }),
    connections,
    duration,
  });
  const cpuAfter = cpuMicros(pid);
  // The server's CPU per answered request (µs), measured over the same run.
  const cpuUs = cpuBefore !== undefined && cpuAfter !== undefined && r.requests.total > 0 ? Math.round((cpuAfter - cpuBefore) / r.requests.total) : undefined;
  return { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx, cpuUs };
}

export async function throughput({ root, build, dataDir }) {
  const results = [];
  const targets = [
    ['bare node:http', () => startProcess(process.execPath, [build('servers/bare.ts')])],
    ['SDK v2 (@modelcontextprotocol/server)', () => startProcess(process.execPath, [build('servers/sdk.ts')], { cwd: root })],
    [
      'Loupe CLI mock',
      () => startProcess(process.execPath, [`${root}/dist/cli.mjs`, 'mock', 'conformance', '--port', '0', '--data-dir', `${dataDir}/cli`], { cwd: root }),
    ],
  ];
  for (const [name, start] of targets) {
    const p = await start();
    const url = name.startsWith('Loupe') ? p.url.replace(/\/mcp$/, '/mcp/conformance') : p.url;
    try {
      results.push(await runTarget(name, url, { pid: p.pid }));
    } finally {
      await p.stop();
    }
  }
  return results;
}
