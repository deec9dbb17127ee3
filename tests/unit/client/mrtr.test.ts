import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { createClientSession, type ClientSession } from '../../../lib/client/session';
import { createMemoryTransport } from '../../../lib/client/memory-transport';
import { createTrackingTransport } from '../../../lib/client/tracking';
import type { Frame } from '../../../lib/client/frames';
import type { InputRequests } from '../../../lib/protocol';

/** The MRTR loop against the conformance scenario's input_required tools, over the engine's fetch face. */

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

type Sent = { id: string | number; method: string; params: Record<string, unknown> };

function setup(caps: Record<string, unknown> = { elicitation: { form: {} }, sampling: {}, roots: {} }) {
  const engine = createMockEngine({ scenario: getBuiltinScenario('conformance')! });
  engines.push(engine);
  const frames: Frame[] = [];
  const transport = createTrackingTransport(createMemoryTransport(engine), { sink: (f) => frames.push(f) });
  const session = createClientSession({ transport, era: 'modern', capabilities: caps });
  const sent = () => frames.filter((f) => f.kind === 'http-request').map((f) => f.body as Sent);
  const results = () =>
    frames.filter((f) => f.kind === 'message' || f.kind === 'sse-frame').map((f) => f.body as { id?: unknown; result?: Record<string, unknown> });
  return { session, frames, sent, results };
}

const accept = (content: Record<string, unknown>) => async (reqs: InputRequests) =>
  Object.fromEntries(Object.keys(reqs).map((k) => [k, { action: 'accept', content }]));

describe('callWithInput', () => {
  it('runs a multi-round conversation: a new id per retry, the requestState echoed byte for byte, one conversation id', async () => {
    const { session, sent, results, frames } = setup();
    const asked: string[][] = [];
    const out = await session.callWithInput('test_input_required_result_multi_round', {}, async (reqs, round) => {
      asked.push(Object.keys(reqs));
      expect(round.requestState).toEqual(expect.any(String));
      return accept({ name: 'Ada', color: 'teal' })(reqs);
    });
    expect(out).toMatchObject({ type: 'complete', rounds: 3 });
    expect((out as { result: { content: { text: string }[] } }).result.content[0].text).toBe('Ada likes teal');
    expect(asked).toEqual([['step1'], ['step2']]);

    const calls = sent().filter((m) => m.method === 'tools/call');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.id)).size).toBe(3);
    const states = results()
      .filter((r) => r.result?.resultType === 'input_required')
      .map((r) => r.result!.requestState);
    expect(calls[0].params).not.toHaveProperty('requestState');
    expect(calls[0].params).not.toHaveProperty('inputResponses');
    expect(calls[1].params.requestState).toBe(states[0]);
    expect(calls[2].params.requestState).toBe(states[1]);
    expect(calls[1].params.inputResponses).toEqual({ step1: { action: 'accept', content: { name: 'Ada', color: 'teal' } } });
    expect(calls[2].params.inputResponses).toEqual({ step2: { action: 'accept', content: { name: 'Ada', color: 'teal' } } });
    // Every round re-declares the capabilities (no session state on the server).
    for (const c of calls)
      expect((c.params._meta as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities']).toEqual({
        elicitation: { form: {} },
        sampling: {},
        roots: {},
      });
    const convo = new Set(frames.filter((f) => f.method === 'tools/call').map((f) => f.conversationId));
    expect(convo.size).toBe(1);
    expect([...convo][0]).toMatch(/^mrtr-/);
  });

  it('answers elicitation, sampling and roots in one round', async () => {
    const { session } = setup();
    const out = await session.callWithInput('test_input_required_result_multiple_inputs', {}, async (reqs) => ({
      user_name: { action: 'accept', content: { name: 'Lin' } },
      greeting: { role: 'assistant', content: { type: 'text', text: 'Good morning' }, model: 'm' },
      client_roots: { roots: [{ uri: 'file:///w', name: 'w' }] },
      ...(Object.keys(reqs).length === 3 ? {} : { unexpected: true }),
    }));
    expect(out.type).toBe('complete');
    expect(JSON.stringify(out)).toContain('Hello Lin: Good morning');
  });

  it('never leaks one call’s inputResponses or requestState into a parallel call', async () => {
    const { session, sent } = setup();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const a = session.callWithInput('test_input_required_result_request_state', {}, async (reqs) => {
      await gate;
      return accept({ ok: true })(reqs);
    });
    const b = session.callWithInput('test_input_required_result_elicitation', {}, async (reqs) => {
      // While call A waits for its answer, unrelated plain calls go out.
      const plain = await session.callTool('test_simple_text', {});
      expect(plain.type).toBe('complete');
      release();
      return accept({ name: 'Bo' })(reqs);
    });
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.type).toBe('complete');
    expect(rb.type).toBe('complete');
    const calls = sent().filter((m) => m.method === 'tools/call');
    const simple = calls.filter((c) => c.params.name === 'test_simple_text');
    expect(simple).toHaveLength(1);
    expect(simple[0].params).not.toHaveProperty('inputResponses');
    expect(simple[0].params).not.toHaveProperty('requestState');
    const retriesA = calls.filter((c) => c.params.name === 'test_input_required_result_request_state' && c.params.inputResponses);
    const retriesB = calls.filter((c) => c.params.name === 'test_input_required_result_elicitation' && c.params.inputResponses);
    expect(Object.keys(retriesA[0].params.inputResponses as object)).toEqual(['confirm']);
    expect(Object.keys(retriesB[0].params.inputResponses as object)).toEqual(['user_name']);
  });

  it('stops without retrying when the answerer declines, and bounds the rounds', async () => {
    const { session, sent } = setup();
    const out = await session.callWithInput('test_input_required_result_elicitation', {}, async () => undefined);
    expect(out).toMatchObject({ type: 'abandoned', rounds: 1, inputRequests: { user_name: { method: 'elicitation/create' } } });
    expect(sent().filter((m) => m.method === 'tools/call')).toHaveLength(1);

    const bounded = await session.callWithInput('test_input_required_result_multi_round', {}, accept({ name: 'x', color: 'y' }), { maxRounds: 2 });
    expect(bounded).toMatchObject({ type: 'failure', reason: 'max-rounds', rounds: 2 });
  });
});

describe('result classification', () => {
  /** A server answering each tools/call with the next canned result. */
  function canned(results: Record<string, unknown>[]) {
    const seen: Sent[] = [];
    const target = {
      async fetch(req: Request) {
        const body = (await req.json()) as Sent;
        seen.push(body);
        if (body.method === 'tools/list') return Response.json({ jsonrpc: '2.0', id: body.id, result: { resultType: 'input_required', inputRequests: {} } });
        return Response.json({ jsonrpc: '2.0', id: body.id, result: results.shift() ?? { resultType: 'complete', content: [] } });
      },
    };
    return { session: createClientSession({ transport: createMemoryTransport(target), era: 'modern' }) as ClientSession, seen };
  }

  it('treats a missing resultType as complete and does not retry', async () => {
    const { session, seen } = canned([{ content: [{ type: 'text', text: 'no-result-type' }] }]);
    const out = await session.callWithInput('t', {}, async () => ({ x: { action: 'accept' } }));
    expect(out).toMatchObject({ type: 'complete', rounds: 1 });
    expect(seen.filter((s) => s.method === 'tools/call')).toHaveLength(1);
  });

  it('treats an unknown resultType, a task nobody asked for and input_required on tools/list as invalid', async () => {
    const { session } = canned([
      { resultType: 'deferred' },
      { resultType: 'task', taskId: 't', status: 'working', createdAt: '2026-07-28T00:00:00Z', lastUpdatedAt: '2026-07-28T00:00:00Z', ttlMs: null },
    ]);
    expect(await session.request('tools/list')).toMatchObject({ type: 'invalid', reason: expect.stringContaining('not allowed on tools/list') });
    expect(await session.request('tools/call', { name: 't', arguments: {} })).toMatchObject({ type: 'invalid', reason: 'unknown resultType "deferred"' });
    expect(await session.request('tools/call', { name: 't', arguments: {} })).toMatchObject({
      type: 'invalid',
      reason: expect.stringContaining('did not declare the tasks extension'),
    });
  });

  it('retries a requestState-only input_required after a backoff, echoing the state without inputResponses', async () => {
    const { session, seen } = canned([
      { resultType: 'input_required', requestState: 'later:1' },
      { resultType: 'complete', content: [] },
    ]);
    const out = await session.callWithInput('t', { a: 1 }, async () => {
      throw new Error('nothing to answer');
    });
    expect(out).toMatchObject({ type: 'complete', rounds: 2 });
    const calls = seen.filter((s) => s.method === 'tools/call');
    expect(calls[1].params).toMatchObject({ name: 't', arguments: { a: 1 }, requestState: 'later:1' });
    expect(calls[1].params).not.toHaveProperty('inputResponses');
  });
});
