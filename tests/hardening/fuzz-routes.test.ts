import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIdleListens, percentile, startHealthyClient, startSlowloris } from './fuzz/background';
import { type RawOutcome, type RawRequest, sendRaw } from './fuzz/raw-client';
import { PAGE_FAMILY, requestArb, ROUTE_FAMILIES } from './fuzz/requests';
import { credentialsFor, rssMb, startAppTarget, startMockTarget, type Target } from './fuzz/targets';

/**
 * Hostile bytes at every route of `mcp-loupe mock` and of the app server, both real processes:
 * malformed JSON, wrong types in every field, prototype keys at every depth and as path
 * segments, huge and 10,000-deep bodies, bad and duplicate headers, wrong content types,
 * batches, broken UTF-8, with and without credentials; meanwhile slowloris connections trickle,
 * 2,000 listen streams sit idle and a healthy client keeps calling `tools/call`.
 * Counted: process exits, 5xx, requests not answered within LOUPE_FUZZ_HANG_MS (all must be 0),
 * RSS growth, and the healthy client's latencies (printed).
 *
 * LOUPE_FUZZ_RUNS cases per route family (default 300; the long run is 10000),
 * LOUPE_FUZZ_SEED to replay a run, LOUPE_FUZZ_LISTENS idle listens (default 2000).
 */

const RUNS = Number(process.env.LOUPE_FUZZ_RUNS ?? 300);
const SEED = Number(process.env.LOUPE_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const HANG_MS = Number(process.env.LOUPE_FUZZ_HANG_MS ?? 15_000);
const LISTENS = Number(process.env.LOUPE_FUZZ_LISTENS ?? 2000);
const CONCURRENCY = 8;
const LIMIT = 4 * 1024 * 1024;

interface Tally {
  sent: number;
  byStatus: Map<number, number>;
  fiveXx: { request: string; head: string }[];
  hangs: string[];
  resets: { request: string; error: string }[];
}

const describeRequest = (r: RawRequest) =>
  `${r.method} ${r.path} [${r.headers.map(([k, v]) => `${k}: ${v}`).join(' | ')}] ${r.body ? r.body.subarray(0, 300).toString('utf8') : ''}`;

/** Fire every case at the target, CONCURRENCY at a time, and count what came back. */
async function fire(target: Target, cases: RawRequest[], tally: Tally): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const r = cases[next++] as RawRequest;
      const o: RawOutcome = await sendRaw(target.port, r, HANG_MS);
      tally.sent++;
      if (o.kind === 'hang') tally.hangs.push(describeRequest(r));
      else if (o.kind === 'reset') {
        // Refusing an oversized body may close the connection before the client finished writing it.
        if ((r.body?.byteLength ?? 0) <= LIMIT) tally.resets.push({ request: describeRequest(r), error: o.error });
      } else {
        tally.byStatus.set(o.status, (tally.byStatus.get(o.status) ?? 0) + 1);
        if (o.status >= 500) tally.fiveXx.push({ request: describeRequest(r), head: o.head });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function fuzzTarget(target: Target, families: Record<string, fc.Arbitrary<string>>) {
  const creds = await credentialsFor(target);
  const rssBefore = rssMb(target.pid);
  const listens = await openIdleListens(target.port, LISTENS);
  const slow = startSlowloris(target.port, 20, 500);
  const healthy = startHealthyClient(target.port);
  const tally: Tally = { sent: 0, byStatus: new Map(), fiveXx: [], hangs: [], resets: [] };
  const started = performance.now();
  try {
    let seed = SEED;
    for (const [name, family] of Object.entries(families)) {
      const arb = fc.constantFrom(...creds).chain((c) => requestArb(target.port, family, c, LIMIT));
      const from = Math.round(performance.now());
      // Generated a chunk at a time: 10,000 hostile cases at once would hold this process for seconds.
      for (let done = 0; done < RUNS; done += 250) await fire(target, fc.sample(arb, { numRuns: Math.min(250, RUNS - done), seed: seed++ }), tally);
      console.log(`[fuzz] ${target.name} ${name}: ${from}..${Math.round(performance.now())} ms`);
    }
  } finally {
    await healthy.stop();
    slow.stop();
  }
  const stillOpen = listens.open();
  listens.close();
  const rssAfter = rssMb(target.pid);
  const statuses = [...tally.byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  console.log(
    [
      `[fuzz] ${target.name}: ${tally.sent} requests in ${Math.round((performance.now() - started) / 1000)} s (seed ${SEED}, ${RUNS} per family × ${Object.keys(families).length} families)`,
      `  statuses ${statuses}; 5xx ${tally.fiveXx.length}, hangs ${tally.hangs.length}, resets ${tally.resets.length}, exits ${target.exits()}`,
      `  idle listens ${LISTENS}: ${[...listens.statuses].map(([s, n]) => `${s}×${n}`).join(' ')}, ${stillOpen} still open at the end`,
      `  healthy tools/call: ${healthy.latencies.length} calls, p50 ${percentile(healthy.latencies, 50)} ms, p99 ${percentile(healthy.latencies, 99)} ms, max ${percentile(healthy.latencies, 100)} ms, ${healthy.failures.length} failed, ${healthy.retried()} retried after a keep-alive close`,
      `  RSS ${rssBefore} MB → ${rssAfter} MB`,
    ].join('\n'),
  );
  return { tally, healthy, listens, stillOpen, rssBefore, rssAfter };
}

function expectClean(target: Target, r: Awaited<ReturnType<typeof fuzzTarget>>) {
  expect(target.exits(), target.output()).toBe(0);
  expect(r.tally.fiveXx.slice(0, 5)).toEqual([]);
  expect(r.tally.hangs.slice(0, 5)).toEqual([]);
  expect(r.tally.resets.slice(0, 5)).toEqual([]);
  expect(r.healthy.failures.slice(0, 5)).toEqual([]);
  expect(r.healthy.latencies.length).toBeGreaterThan(0);
  // Every idle listen was accepted as a stream and none was dropped while idle.
  expect(r.listens.statuses.get('200')).toBe(LISTENS);
  expect(r.stillOpen).toBe(LISTENS);
}

describe('fuzzing every route', () => {
  let mock: Target;
  let app: Target;
  beforeAll(async () => {
    // Both settle before any failure is thrown, so afterAll stops the one that did start.
    const started = await Promise.allSettled([startMockTarget().then((t) => (mock = t)), startAppTarget().then((t) => (app = t))]);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
  });
  afterAll(async () => {
    await Promise.all([mock?.stop(), app?.stop()]);
  });

  it('mcp-loupe mock: no exit, no 5xx, no hang; the healthy client keeps its answers', { timeout: 60 * 60_000 }, async () => {
    const r = await fuzzTarget(mock, ROUTE_FAMILIES);
    expectClean(mock, r);
  });

  it('the app server, with and without credentials: no exit, no 5xx, no hang', { timeout: 60 * 60_000 }, async () => {
    const r = await fuzzTarget(app, { ...ROUTE_FAMILIES, pages: PAGE_FAMILY });
    expectClean(app, r);
  });
});
