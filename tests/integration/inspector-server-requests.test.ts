import { afterEach, describe, expect, it } from 'vitest';
import { listen } from '../../lib/adapters/node-http';
import { answerOf, refusal } from '../../lib/client/interactive-answerer';
import { samplingAnswer } from '../../lib/client/input-answers';
import { createMockEngine } from '../../lib/engine';
import { objectSchema } from '../../lib/scenario/builtins/schema-helpers';
import { ScenarioSchema } from '../../lib/scenario/schema';
import { createInspectorStore, type InspectorStore } from '../../lib/state/inspector-store';

/**
 * The inspector connected in the 2025-11-25 era over real HTTP: a tool whose input the mock asks
 * with its own requests (form and URL elicitation, sampling, roots) waits for the person's
 * answers in the store, which go back as JSON-RPC responses; roots are answered without asking;
 * a refused sampling request fails the call with the spec's error; Disconnect cancels what waits;
 * the timeline shows each server request coming in and its answer going out.
 */

const scenario = ScenarioSchema.parse({
  id: 'asks',
  name: 'Asks everything',
  server: { name: 'asks', version: '1.0.0' },
  tools: [
    {
      name: 'ask_everything',
      inputSchema: objectSchema(),
      mrtr: {
        rounds: [
          {
            inputRequests: {
              confirm: {
                method: 'elicitation/create',
                params: { mode: 'form', message: 'Sure?', requestedSchema: objectSchema({ sure: { type: 'boolean' } }, { required: ['sure'] }) },
              },
              link: { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' } },
              sample: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }], maxTokens: 50 } },
              where: { method: 'roots/list', params: {} },
            },
            validate: false,
          },
        ],
      },
      result: {
        content: [
          {
            type: 'text',
            text: 'form={{inputs.confirm.action}}/{{inputs.confirm.content.sure}} url={{inputs.link.action}} reply={{inputs.sample.content.text}}',
          },
        ],
      },
    },
  ],
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Bodies the inspector POSTed, in order, with their headers. */
const posted: { body: string; headers: Headers }[] = [];

async function connected(): Promise<InspectorStore> {
  const engine = createMockEngine({ scenario });
  const server = await listen((req) => engine.fetch(req), '127.0.0.1', 0);
  posted.length = 0;
  const fetch = (input: string, init: RequestInit) => {
    if (init.method === 'POST') posted.push({ body: String(init.body), headers: new Headers(init.headers) });
    return globalThis.fetch(input, init);
  };
  const store = createInspectorStore({ scheduleLint: () => {}, fetch });
  cleanups.push(
    () => engine.close(),
    () => server.close(),
    () => store.getState().connection.disconnect(),
  );
  await store.getState().connection.connect({ url: `http://127.0.0.1:${server.port}/mcp`, era: 'legacy' });
  expect(store.getState().connection.status).toBe('connected');
  expect(store.getState().connection.server?.protocolVersion).toBe('2025-11-25');
  return store;
}

/** The next request waiting for the person (its method and params). */
async function nextAsked(store: InspectorStore, after = 0) {
  for (;;) {
    const first = store.getState().serverRequests.pending[0];
    if (first && first.seq > after) return first;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the inspector answers a 2025-11-25 server’s requests', () => {
  it('asks the person for forms, URL consent and a model reply, answers roots itself, and the tool gets every answer', async () => {
    const store = await connected();
    const call = store.getState().connection.session!.callTool('ask_everything', {});
    const form = await nextAsked(store);
    expect(form).toMatchObject({ method: 'elicitation/create', params: { mode: 'form', message: 'Sure?' } });
    store.getState().serverRequests.settle(form.seq, answerOf({ action: 'accept', content: { sure: true } }));
    const url = await nextAsked(store, form.seq);
    expect(url).toMatchObject({ method: 'elicitation/create', params: { mode: 'url', url: 'https://example.com/login' } });
    store.getState().serverRequests.settle(url.seq, answerOf({ action: 'accept' }));
    const sample = await nextAsked(store, url.seq);
    expect(sample.method).toBe('sampling/createMessage');
    store.getState().serverRequests.settle(sample.seq, answerOf(samplingAnswer('Hello there', 'human')));
    const out = await call;
    expect(out).toMatchObject({ type: 'complete', result: { content: [{ type: 'text', text: 'form=accept/true url=accept reply=Hello there' }] } });
    // roots/list never waited for the person.
    expect(store.getState().serverRequests.pending).toEqual([]);

    // The timeline: each server request came in on the call's stream, each answer went out, labelled.
    const entries = [...store.getState().timeline.buffer.ids()].map((id) => store.getState().timeline.buffer.get(id)!);
    const asked = entries.filter((e) => e.direction === 'in' && e.rpcKind === 'request');
    const answered = entries.filter((e) => e.direction === 'out' && e.kind === 'http-request' && e.rpcKind === 'result');
    expect(asked.map((e) => e.method)).toEqual(['elicitation/create', 'elicitation/create', 'sampling/createMessage', 'roots/list']);
    // Frames carry their exchange's id (the tools/call); the server request's own id is in its body.
    const ownId = (e: (typeof asked)[number]) => (JSON.parse(e.preview ?? '{}') as { id?: unknown }).id;
    expect(answered.map((e) => [e.method, e.rpcId])).toEqual(asked.map((e) => [e.method, ownId(e)]));
  });

  it('a refused sampling request fails the call with the spec’s -1 error; Disconnect cancels what still waits', async () => {
    const store = await connected();
    const call = store.getState().connection.session!.callTool('ask_everything', {});
    const form = await nextAsked(store);
    store.getState().serverRequests.settle(form.seq, answerOf({ action: 'decline' }));
    const url = await nextAsked(store, form.seq);
    store.getState().serverRequests.settle(url.seq, refusal('elicitation/create'));
    const sample = await nextAsked(store, url.seq);
    store.getState().serverRequests.settle(sample.seq, refusal('sampling/createMessage'));
    expect(await call).toMatchObject({ type: 'error', error: { code: -1, message: 'User rejected sampling request' } });

    const again = store.getState().connection.session!.callTool('ask_everything', {});
    await nextAsked(store, sample.seq);
    // The answers so far were POSTed (the decline among them); the wrapper sees every POST.
    const declined = posted.find((p) => p.body.includes('"action":"decline"'));
    // …in the session: the answer carries the Mcp-Session-Id and the protocol version.
    expect(declined?.headers.get('mcp-session-id')).toMatch(/.+/);
    expect(declined?.headers.get('mcp-protocol-version')).toBe('2025-11-25');
    const before = posted.length;
    store.getState().connection.disconnect();
    expect(store.getState().serverRequests.pending).toEqual([]);
    expect((await again).type).not.toBe('complete');
    // The cancelled answer is not sent: after Disconnect nothing reaches the server.
    await new Promise((r) => setTimeout(r, 200));
    expect(posted.slice(before)).toEqual([]);
  });
});
