// tasks/get latency with 10,000 tasks in the SQLite store (CLI mock, manual steps so nothing moves).
import { body, headers, percentile, rpc, startProcess } from './lib.mjs';

export async function tasksGet({ root, dataDir, count = 10_000, samples = 2_000 }) {
  const p = await startProcess(process.execPath, [`${root}/dist/cli.mjs`, 'mock', 'demo', '--port', '0', '--manual', '--data-dir', `${dataDir}/tasks`], {
    cwd: root,
  });
  try {
    const ids = [];
    const t0 = performance.now();
    for (let i = 0; i < count; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, count - i) }, () =>
          rpc(p.url, 'tools/call', { name: 'generate_report', arguments: { size: 'small' } }, 'generate_report'),
        ),
      );
      for (const b of batch) ids.push(b.result.taskId);
    }
    const createMs = performance.now() - t0;
    const lat = [];
    for (let i = 0; i < samples; i++) {
      const id = ids[Math.floor(Math.random() * ids.length)];
      const s = performance.now();
      const res = await fetch(p.url, { method: 'POST', headers: headers('tasks/get', id), body: body(i, 'tasks/get', { taskId: id }) });
      const j = await res.json();
      lat.push(performance.now() - s);
      if (j.result?.taskId !== id) throw new Error(`tasks/get returned ${JSON.stringify(j).slice(0, 200)}`);
    }
    return {
      tasks: ids.length,
      createPerSec: Math.round(ids.length / (createMs / 1000)),
      p50: +percentile(lat, 50).toFixed(2),
      p99: +percentile(lat, 99).toFixed(2),
    };
  } finally {
    await p.stop();
  }
}
