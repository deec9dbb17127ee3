// 1,000 concurrent listen streams on one task: the latency from a status change to each stream's snapshot.
import http from 'node:http';
import { body, headers, percentile, rpc, startProcess } from './lib.mjs';

export function openStream(url, taskId, onMessage) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent: false, headers: headers('subscriptions/listen') },
      (res) => {
        res.setEncoding('utf8');
        let buf = '';
        res.on('data', (d) => {
          buf += d;
          for (let cut = buf.indexOf('\n\n'); cut >= 0; cut = buf.indexOf('\n\n')) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const data = block.split('\n').find((l) => l.startsWith('data: '));
            if (data) {
              const msg = JSON.parse(data.slice(6));
              if (msg.method === 'notifications/subscriptions/acknowledged') resolve(req);
              else onMessage(msg);
            }
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body(`l-${Math.random()}`, 'subscriptions/listen', { notifications: { taskIds: [taskId] } }));
  });
}

export async function listenFanout({ root, dataDir, streams = 1000 }) {
  const p = await startProcess(process.execPath, [`${root}/dist/cli.mjs`, 'mock', 'demo', '--port', '0', '--manual', '--data-dir', `${dataDir}/fanout`], {
    cwd: root,
  });
  const token = /control token: (\S+)/.exec(p.output())[1];
  const reqs = [];
  try {
    const created = await rpc(p.url, 'tools/call', { name: 'generate_report', arguments: { size: 'small' } }, 'generate_report');
    const taskId = created.result.taskId;
    const arrivals = [];
    let fired = 0;
    for (let i = 0; i < streams; i += 100) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(100, streams - i) }, () =>
          openStream(p.url, taskId, (msg) => {
            if (fired && msg.method === 'notifications/tasks' && msg.params.status === 'input_required') arrivals.push(performance.now() - fired);
          }),
        ),
      );
      reqs.push(...batch);
    }
    await new Promise((r) => setTimeout(r, 300));
    fired = performance.now();
    await fetch(new URL(`/api/scenarios/demo/tasks/${taskId}/advance`, p.url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    const deadline = Date.now() + 10_000;
    while (arrivals.length < streams && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return { streams, delivered: arrivals.length, p50: +percentile(arrivals, 50).toFixed(1), p99: +percentile(arrivals, 99).toFixed(1) };
  } finally {
    for (const r of reqs) r.destroy();
    await p.stop();
  }
}
