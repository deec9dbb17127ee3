import { afterEach, describe, expect, it } from 'vitest';
import { listen } from '../../lib/adapters/node-http';
import { parseRetryAfter } from '../../lib/client/retry-after';
import { createMockEngine, type MockEngine } from '../../lib/engine';
import { demoScenario } from '../../lib/scenario/builtins/demo';
import { ScenarioSchema, type Scenario } from '../../lib/scenario/schema';
import { createInspectorStore, type InspectorStore } from '../../lib/state/inspector-store';

/**
 * A busy server over real HTTP: the inspector waits as Retry-After asks (seconds and HTTP-date),
 * shows the wait, then connects, or fails with the cause after a bounded number of retries; the
 * mock's report card grades a client that waits (pass) and one that does not (fail).
 */

type Fault = Scenario['faults'][number];

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The demo scenario with `faults`, served by an engine on node:http; `front` may answer first. */
async function serve(faults: Fault[], front?: (req: Request) => Response | undefined): Promise<{ engine: MockEngine; url: string }> {
  const engine = createMockEngine({ scenario: ScenarioSchema.parse({ ...demoScenario, faults }) });
  const server = await listen((req) => front?.(req) ?? engine.fetch(req), '127.0.0.1', 0);
  cleanups.push(
    () => engine.close(),
    () => server.close(),
  );
  return { engine, url: `http://127.0.0.1:${server.port}/mcp` };
}

/** An inspector store that remembers every busy notice it showed. */
function inspector(): { store: InspectorStore; notices: string[] } {
  const store = createInspectorStore({ scheduleLint: () => {} });
  const notices: string[] = [];
  store.subscribe((s) => {
    const text = s.connection.busy?.text;
    if (text && notices[notices.length - 1] !== text) notices.push(text);
  });
  cleanups.push(() => store.getState().connection.disconnect());
  return { store, notices };
}

const grade = (engine: MockEngine) => engine.reportCard().grades.find((g) => g.id === 'honours-retry-after')!;
const seqOf = (engine: MockEngine, method: string, n: number) => engine.journal.entries().filter((e) => e.method === method)[n]!.seq;

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP-dates, and nothing else', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Tue, 01 Dec 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tuesday, 01-Dec-26 10:00:02 GMT', now)).toBe(2000);
    expect(parseRetryAfter('Tue, 01 Dec 2026 09:59:00 GMT', now)).toBe(0);
    for (const bad of [undefined, '', '-1', '1.5', 'soon', '2026-12-01']) expect(parseRetryAfter(bad, now)).toBeUndefined();
  });

  it('the inspector waits as a 503’s Retry-After asks, shows the wait, then connects; the report card passes it', async () => {
    const { engine, url } = await serve([
      { name: 'busy', match: { method: 'server/discover', nth: 1 }, action: { kind: 'http-status', status: 503, retryAfter: 1 } },
    ]);
    const { store, notices } = inspector();
    await store.getState().connection.connect({ url });
    expect(notices).toEqual(['Server busy (503 Service Unavailable), retrying server/discover in 1 s (1 of 3)']);
    const c = store.getState().connection;
    expect(c.status).toBe('connected');
    expect(c.busy).toBeUndefined();
    expect(c.tools.map((t) => t.name)).toContain('generate_report');
    const g = grade(engine);
    expect(g).toMatchObject({ status: 'pass', evidence: [seqOf(engine, 'server/discover', 0), seqOf(engine, 'server/discover', 1)] });
  });

  it('a client that retries at once after Retry-After fails the grade, with both requests as evidence', async () => {
    const { engine, url } = await serve([{ match: { method: 'tools/list', nth: 1 }, action: { kind: 'http-status', status: 429, retryAfter: 2 } }]);
    const post = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    const first = await post();
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('2');
    await post();
    const g = grade(engine);
    expect(g.status).toBe('fail');
    expect(g.detail).toMatch(/tools\/list #\d+ came \d+ ms after the 429 in #\d+, which asked for 2 s/);
    expect(g.evidence).toEqual([seqOf(engine, 'tools/list', 0), seqOf(engine, 'tools/list', 1)]);
  });

  it('waits until a 429’s HTTP-date before the retry', async () => {
    let until = 0;
    let answered = false;
    let retriedAt = 0;
    const { url } = await serve([], () => {
      if (answered) {
        retriedAt ||= Date.now();
        return undefined;
      }
      answered = true;
      const date = new Date(Date.now() + 2_000).toUTCString();
      until = Date.parse(date);
      return new Response('slow down', { status: 429, headers: { 'Retry-After': date } });
    });
    const { store, notices } = inspector();
    await store.getState().connection.connect({ url });
    expect(store.getState().connection.status).toBe('connected');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^Server busy \(429 Too Many Requests\), retrying server\/discover in [12] s \(1 of 3\)$/);
    expect(retriedAt).toBeGreaterThanOrEqual(until);
  });

  it('a server that stays busy during connect is a failed connect with its cause, not an empty server', async () => {
    const { engine, url } = await serve([{ match: { method: 'server/discover' }, action: { kind: 'http-status', status: 503, retryAfter: 0 } }]);
    const { store, notices } = inspector();
    await store.getState().connection.connect({ url });
    const c = store.getState().connection;
    expect(c.status).toBe('error');
    expect(c.error).toBe(`busy: 503 Service Unavailable from ${url}: retried 3 times`);
    expect(notices.map((n) => n.replace(/ in \d s/, ''))).toEqual(
      [1, 2, 3].map((n) => `Server busy (503 Service Unavailable), retrying server/discover (${n} of 3)`),
    );
    // Bounded, and no fallback to the 2025-11-25 handshake: a busy server is not an old one.
    expect(engine.journal.entries().map((e) => e.method)).toEqual(['server/discover', 'server/discover', 'server/discover', 'server/discover']);
  });

  it('a tools/list that stays busy fails the connect too', async () => {
    const { url } = await serve([{ match: { method: 'tools/list' }, action: { kind: 'http-status', status: 503, retryAfter: 0 } }]);
    const { store } = inspector();
    await store.getState().connection.connect({ url });
    const c = store.getState().connection;
    expect(c.status).toBe('error');
    expect(c.error).toBe(`tools/list: busy: 503 Service Unavailable from ${url}: retried 3 times`);
  });
});
