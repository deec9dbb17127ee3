// tools/call throughput: bare node:http (ceiling), the SDK v2, Loupe's CLI mock, and Loupe's app server (run.mjs adds it, as npm start serves it).
import autocannon from 'autocannon';
import { body, headers, startProcess } from './lib.mjs';

export async function runTarget(name, url, { duration = 6, connections = 16 } = {}) {
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
  const r = await autocannon({
    url,
    method: 'POST',
    headers: headers('tools/call', 'test_simple_text'),
    body: body(1, 'tools/call', { name: 'test_simple_text', arguments: {} }),
    connections,
    duration,
  });
  return { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
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
      results.push(await runTarget(name, url));
    } finally {
      await p.stop();
    }
  }
  return results;
}
