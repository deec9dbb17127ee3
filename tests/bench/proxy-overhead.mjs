// The proxy's cost: the same tools/call sent directly to the CLI mock and through Loupe's
// /api/proxy as the inspector uses it, on the app server `npm start` runs. Sequential requests; medians.
import { body, headers, percentile, startApp, startProcess } from './lib.mjs';

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
  const mock = await startProcess(process.execPath, [`${root}/dist/cli.mjs`, 'mock', 'conformance', '--port', '0', '--data-dir', `${dataDir}/proxy-mock`], {
    cwd: root,
  });
  let app;
  try {
    const target = mock.url.replace(/\/mcp$/, '/mcp/conformance');
    const direct = (i) =>
      fetch(target, {
        method: 'POST',
        headers: headers('tools/call', 'test_simple_text'),
        body: body(i, 'tools/call', { name: 'test_simple_text', arguments: {} }),
      });
    const viaProxy = (port) => (i) =>
      fetch(`http://127.0.0.1:${port}/api/proxy`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer bench-token' },
        body: JSON.stringify({
          url: target,
          method: 'POST',
          headers: headers('tools/call', 'test_simple_text'),
          body: body(i, 'tools/call', { name: 'test_simple_text', arguments: {} }),
        }),
      });
    app = await startApp({ root, dataDir: `${dataDir}/proxy-app` });
    await timeRequests(100, direct);
    await timeRequests(100, viaProxy(app.port));
    // Interleaved rounds, so a noisy moment hits both alike.
    const d = [];
    const a = [];
    for (let round = 0; round < 3; round++) {
      d.push(...(await timeRequests(samples / 3, direct)));
      a.push(...(await timeRequests(samples / 3, viaProxy(app.port))));
    }
    const directP50 = percentile(d, 50);
    const proxyP50 = percentile(a, 50);
    return {
      samples,
      directP50: +directP50.toFixed(2),
      proxyP50: +proxyP50.toFixed(2),
      overheadP50: +(proxyP50 - directP50).toFixed(2),
    };
  } finally {
    await app?.stop();
    await mock.stop();
  }
}
