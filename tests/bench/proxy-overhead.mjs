// The proxy's cost: the same tools/call sent directly to the CLI mock and through Loupe's
// /api/proxy (under next start, as the inspector uses it). Sequential requests; medians.
import { body, headers, percentile, startProcess, freePort } from './lib.mjs';

async function timeRequests(n, send) {
  const lat = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    const res = await send(i);
    const text = await res.text();
    lat.push(performance.now() - s);
    if (res.status !== 200 || !text.includes('simple text response')) throw new Error(`answered ${res.status}: ${text.slice(0, 200)}`);
  }
  return lat;
}

export async function proxyOverhead({ root, dataDir, samples = 600 }) {
  const mock = await startProcess(process.execPath, [`${root}/dist/cli.mjs`, 'mock', 'conformance', '--port', '0', '--data-dir', `${dataDir}/proxy-mock`], { cwd: root });
  const port = await freePort();
  const next = await startProcess(process.execPath, [`${root}/node_modules/next/dist/bin/next`, 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: root,
    env: { LOUPE_DATA_DIR: `${dataDir}/proxy-next`, LOUPE_TOKEN: 'bench-token', NEXT_TELEMETRY_DISABLED: '1' },
    readyPattern: /(Ready) in/,
  });
  try {
    const target = mock.url.replace(/\/mcp$/, '/mcp/conformance');
    const direct = (i) => fetch(target, { method: 'POST', headers: headers('tools/call', 'test_simple_text'), body: body(i, 'tools/call', { name: 'test_simple_text', arguments: {} }) });
    const viaProxy = (i) =>
      fetch(`http://127.0.0.1:${port}/api/proxy`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer bench-token' },
        body: JSON.stringify({ url: target, method: 'POST', headers: headers('tools/call', 'test_simple_text'), body: body(i, 'tools/call', { name: 'test_simple_text', arguments: {} }) }),
      });
    await timeRequests(100, direct);
    await timeRequests(100, viaProxy);
    const d = await timeRequests(samples, direct);
    const p = await timeRequests(samples, viaProxy);
    const directP50 = percentile(d, 50);
    const proxyP50 = percentile(p, 50);
    return { samples, directP50: +directP50.toFixed(2), proxyP50: +proxyP50.toFixed(2), overheadP50: +(proxyP50 - directP50).toFixed(2) };
  } finally {
    await next.stop();
    await mock.stop();
  }
}
