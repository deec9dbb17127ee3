import { describe, expect, it } from 'vitest';
import { createMockEngine } from '../../../lib/engine';
import { createFaultInjector, hashSeed, mulberry32, sampleLatency, shuffled } from '../../../lib/engine/faults';
import { FaultSchema, type Fault } from '../../../lib/scenario/fault-schema';
import { parseScenario } from '../../../lib/scenario/loader';
import { ScenarioSchema, type ScenarioInput } from '../../../lib/scenario/schema';
import { callTool, rpc } from '../../helpers/rpc';

const fault = (input: unknown): Fault => FaultSchema.parse(input);

/** Which of `n` requests to `method` a single fault fires on (1-based). */
function firings(f: Fault, n: number, seed: number | string = 1, request = { method: 'tools/call', tool: 'echo' }): number[] {
  const injector = createFaultInjector([f], seed);
  const out: number[] = [];
  for (let i = 1; i <= n; i++) if (injector.plan(request)) out.push(i);
  return out;
}

const rpcError = { kind: 'rpc-error', code: -32603, message: 'boom' };

describe('fault matching', () => {
  it('matches by method and by tool, counting only the requests it matches', () => {
    const f = fault({ match: { tool: 'echo', nth: 2 }, action: rpcError });
    const injector = createFaultInjector([f], 1);
    const seen = [
      injector.plan({ method: 'tools/list' }),
      injector.plan({ method: 'tools/call', tool: 'other' }),
      injector.plan({ method: 'tools/call', tool: 'echo' }),
      injector.plan({ method: 'tools/call', tool: 'other' }),
      injector.plan({ method: 'tools/call', tool: 'echo' }),
      injector.plan({ method: 'tools/call', tool: 'echo' }),
    ].map((p) => !!p);
    expect(seen).toEqual([false, false, false, false, true, false]);
    expect(firings(fault({ match: { method: ['tools/list', 'tools/call'] }, action: rpcError }), 3)).toEqual([1, 2, 3]);
    expect(firings(fault({ match: { method: 'tools/list' }, action: rpcError }), 3)).toEqual([]);
  });

  it('nth, every and after select by the 1-based count', () => {
    expect(firings(fault({ match: { nth: [1, 3] }, action: rpcError }), 6)).toEqual([1, 3]);
    expect(firings(fault({ match: { every: 3 }, action: rpcError }), 10)).toEqual([3, 6, 9]);
    expect(firings(fault({ match: { after: 4 }, action: rpcError }), 6)).toEqual([5, 6]);
    expect(firings(fault({ match: { every: 2, after: 3 }, action: rpcError }), 8)).toEqual([4, 6, 8]);
    expect(firings(fault({ action: rpcError }), 2)).toEqual([1, 2]);
  });

  it('probability is deterministic for a seed, differs between seeds and restarts on reset', () => {
    const f = fault({ name: 'flaky', match: { probability: 0.3 }, action: rpcError });
    const a = firings(f, 200, 42);
    expect(firings(f, 200, 42)).toEqual(a);
    expect(firings(f, 200, '42')).toEqual(a);
    expect(firings(f, 200, 43)).not.toEqual(a);
    expect(firings(f, 200, 'a text seed')).toEqual(firings(f, 200, 'a text seed'));
    // Roughly the asked-for rate.
    expect(a.length).toBeGreaterThan(40);
    expect(a.length).toBeLessThan(80);
    const injector = createFaultInjector([f], 42);
    const run = () => Array.from({ length: 50 }, () => !!injector.plan({ method: 'x' }));
    const first = run();
    expect(run()).not.toEqual(first);
    injector.reset();
    expect(run()).toEqual(first);
  });

  it('a named fault keeps its sequence when other faults are added', () => {
    const f = fault({ name: 'flaky', match: { probability: 0.5 }, action: rpcError });
    const alone = createFaultInjector([f], 7);
    const withOther = createFaultInjector([fault({ match: { probability: 0.5 }, action: { kind: 'latency', ms: 1 } }), f], 7);
    for (let i = 0; i < 100; i++) {
      const x = alone.plan({ method: 'm' });
      const y = withOther.plan({ method: 'm' });
      expect(y?.names.includes('flaky') ?? false).toBe(!!x);
    }
  });

  it('combines faults: latencies add up, the first reply wins, stream faults accumulate', () => {
    const injector = createFaultInjector(
      [
        fault({ action: { kind: 'latency', ms: 100 } }),
        fault({ name: 'first', action: { kind: 'http-status', status: 503 } }),
        fault({ action: { kind: 'rpc-error', code: -1, message: 'x' } }),
        fault({ action: { kind: 'latency', ms: 50 } }),
        fault({ action: { kind: 'duplicate' } }),
        fault({ action: { kind: 'garbage' } }),
      ],
      1,
    );
    const plan = injector.plan({ method: 'tools/call' })!;
    expect(plan.delayMs).toBe(150);
    expect(plan.reply).toMatchObject({ kind: 'http-status', status: 503 });
    expect(plan.stream.map((s) => s.kind)).toEqual(['duplicate', 'garbage']);
    expect(plan.names).toEqual(['latency#1', 'first', 'latency#4', 'duplicate#5', 'garbage#6']);
  });
});

describe('the PRNG and samplers', () => {
  it('mulberry32 repeats for a seed and stays in [0, 1)', () => {
    const a = mulberry32(5);
    const b = mulberry32(5);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(hashSeed('abc')).toBe(hashSeed('abc'));
    expect(hashSeed('abc')).not.toBe(hashSeed('abd'));
  });

  it('latency distributions stay in range and repeat for a seed', () => {
    const uniform = fault({ action: { kind: 'latency', distribution: 'uniform', min: 100, max: 200 } }).action as never;
    const normal = fault({ action: { kind: 'latency', distribution: 'normal', mean: 50, stddev: 100 } }).action as never;
    const r = mulberry32(9);
    const u = Array.from({ length: 500 }, () => sampleLatency(uniform, r));
    expect(Math.min(...u)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...u)).toBeLessThanOrEqual(200);
    const n = Array.from({ length: 500 }, () => sampleLatency(normal, r));
    expect(Math.min(...n)).toBe(0); // clamped, never negative
    expect(Math.max(...n)).toBeGreaterThan(150);
    const r1 = mulberry32(3);
    const r2 = mulberry32(3);
    expect(Array.from({ length: 20 }, () => sampleLatency(normal, r1))).toEqual(Array.from({ length: 20 }, () => sampleLatency(normal, r2)));
    expect(shuffled([1, 2, 3, 4, 5, 6], mulberry32(1))).toEqual(shuffled([1, 2, 3, 4, 5, 6], mulberry32(1)));
  });
});

describe('fault schema and loader', () => {
  it('reports fault mistakes at their line', () => {
    const text = [
      'id: broken-faults', // 1
      'server: { name: s, version: "1" }', // 2
      'faults:', // 3
      '  - match: { method: resources/read, tool: echo }', // 4
      '    action: { kind: rpc-error, code: -32603, message: x }', // 5
      '  - action:', // 6
      '      kind: latency', // 7
      '      distribution: uniform', // 8
      '      min: 10', // 9
      '  - action: { kind: explode }', // 10
      '  - match: { probability: 2 }', // 11
      '    action: { kind: drop }', // 12
      '  - action: { kind: duplicate, times: 3 }', // 13
    ].join('\n');
    const result = parseScenario(text, 'f.yaml');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byLine = Object.fromEntries(result.errors.map((e) => [e.line, e.message]));
    expect(byLine[4]).toMatch(/tool matches tools\/call only/i);
    expect(result.errors.find((e) => e.path === 'faults[1].action.max')?.message).toMatch(/needs "max"/);
    expect(result.errors.find((e) => e.path.startsWith('faults[2].action'))?.message).toMatch(/Expected kind to be one of: rpc-error, http-status, latency/);
    expect(byLine[10]).toMatch(/Expected kind to be one of/);
    expect(byLine[11]).toMatch(/<=1/);
    expect(byLine[12]).toMatch(/Missing required key "afterEvents"/);
    expect(byLine[13]).toMatch(/Unknown key "times"/);
  });

  it('accepts every kind and a seed', () => {
    const parsed = ScenarioSchema.safeParse({
      id: 'all-kinds',
      server: { name: 's', version: '1' },
      seed: 'ci',
      faults: [
        { action: { kind: 'rpc-error', code: -32603, message: 'x', data: { why: 1 } } },
        { action: { kind: 'http-status', status: 503, retryAfter: 2, body: 'busy' } },
        { action: { kind: 'latency', ms: 10 } },
        { action: { kind: 'latency', distribution: 'normal', mean: 10, stddev: 2 } },
        { action: { kind: 'stall', afterEvents: 1 } },
        { action: { kind: 'drop', afterEvents: 0 } },
        { action: { kind: 'garbage', text: 'not json' } },
        { action: { kind: 'duplicate' } },
        { action: { kind: 'out-of-order', order: 'shuffle', window: 3 } },
        { action: { kind: 'drip', bytesPerChunk: 4, intervalMs: 5 } },
      ],
    });
    expect(parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe('');
  });
});

describe('faults in the engine', () => {
  const scenario: ScenarioInput = {
    id: 'unit-faults',
    server: { name: 'unit', version: '1' },
    tools: [{ name: 'echo', inputSchema: { type: 'object' }, result: { content: [{ type: 'text', text: 'hi' }] } }],
    faults: [{ name: 'first-call-fails', match: { tool: 'echo', nth: 1 }, action: { kind: 'rpc-error', code: -32603, message: 'Injected failure' } }],
  };

  it('answers the matching call with the fault, journals it, and fires again after reset', async () => {
    const engine = createMockEngine({ scenario: ScenarioSchema.parse(scenario) });
    const first = await callTool(engine, 'echo');
    expect(first.status).toBe(200); // -32603 keeps HTTP 200, as the engine's own errors do
    expect(first.body.error).toEqual({ code: -32603, message: 'Injected failure' });
    expect((await callTool(engine, 'echo')).body.result.content[0].text).toBe('hi');
    expect((await rpc(engine, 'tools/list')).status).toBe(200);
    const faulted = engine.journal.entries().filter((e) => e.fault);
    expect(faulted.map((e) => [e.method, e.fault])).toEqual([['tools/call', 'first-call-fails']]);
    await engine.reset();
    expect((await callTool(engine, 'echo')).body.error?.message).toBe('Injected failure');
    engine.close();
  });
});
