import { describe, expect, it } from 'vitest';
import { SANDBOX_FLOODED_METHOD } from '../../../lib/protocol/bridge-gate';
import { sandboxProxyResponse } from '../../../lib/server/sandbox-proxy';

/**
 * The sandbox proxy page's own flood gate, run as the page ships it (its inline script, on a
 * stand-in window): a view over the limits is stopped there, and the host gets one notice in place
 * of the flood.
 */

const HOST = 'http://127.0.0.1:3000';
const MIB = 1024 * 1024;

async function proxyPage() {
  const res = sandboxProxyResponse(
    new Request(`http://localhost:3000/sandbox/proxy.html?host=${encodeURIComponent(HOST)}&csp={}`, { headers: { host: 'localhost:3000' } }),
    { port: 3000, names: ['127.0.0.1', 'localhost'] },
  );
  const html = await res.text();
  const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1];
  if (!script) throw new Error('no script in the proxy page');
  const toHost: { data: Record<string, unknown>; origin: string }[] = [];
  const parent = { postMessage: (data: Record<string, unknown>, origin: string) => toHost.push({ data, origin }) };
  const view = { postMessage: () => undefined };
  let listener: ((e: { source: unknown; origin: string; data: unknown }) => void) | undefined;
  const state = { viewRemoved: false, shown: '' };
  const element = (tag: string) => ({
    tag,
    textContent: '',
    srcdoc: '',
    contentWindow: tag === 'iframe' ? view : undefined,
    setAttribute: () => undefined,
    addEventListener: () => undefined,
    remove: () => {
      if (tag === 'iframe') state.viewRemoved = true;
    },
  });
  const document = {
    getElementById: () => element('p'),
    createElement: element,
    body: { replaceChildren: (child: { tag: string; textContent: string }) => (state.shown = child.tag === 'p' ? child.textContent : child.tag) },
  };
  const window = {
    parent,
    addEventListener: (_type: string, fn: typeof listener) => (listener = fn),
  };
  const clock = { now: 0 };
  new Function('window', 'document', 'performance', 'setTimeout', script)(window, document, { now: () => clock.now }, () => 0);
  const fromHost = (data: unknown) => listener?.({ source: parent, origin: HOST, data });
  const fromView = (data: unknown) => listener?.({ source: view, origin: 'null', data });
  fromHost({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: '<p>view</p>' } });
  return { toHost, fromView, clock, state };
}

const notices = (toHost: { data: Record<string, unknown> }[]) => toHost.filter((m) => m.data.method === SANDBOX_FLOODED_METHOD).map((m) => m.data.params);

describe('sandbox proxy page under a flood', () => {
  it('relays up to the limit, then stops the view and sends one notice in place of the rest of a 20,000-message burst', async () => {
    const { toHost, fromView, state } = await proxyPage();
    expect(toHost[0]?.data.method).toBe('ui/notifications/sandbox-proxy-ready');
    for (let i = 0; i < 20_000; i++) fromView({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: i } });
    const relayed = toHost.filter((m) => m.data.method === 'ui/notifications/size-changed');
    // Its own ready message counts: 199 of the view's and that one make the 200 a second.
    expect(relayed).toHaveLength(199);
    expect(toHost.every((m) => m.origin === HOST)).toBe(true);
    // The notice comes after the last relayed message; later ones only as the dropped count doubles.
    const first = toHost.findIndex((m) => m.data.method === SANDBOX_FLOODED_METHOD);
    expect(first).toBe(200);
    expect(notices(toHost)[0]).toEqual({ received: 201, windowMs: 0, perSecond: 200, dropped: 0 });
    expect(notices(toHost).at(-1)).toMatchObject({ dropped: 16_384 });
    expect(notices(toHost).length).toBeLessThan(20);
    expect(state.viewRemoved).toBe(true);
    expect(state.shown).toMatch(/flooded the bridge and was stopped/);
  });

  it('stops a view once its JSON passes 4 MiB within ten seconds, relaying what came before', async () => {
    const { toHost, fromView, clock } = await proxyPage();
    const pad = 'x'.repeat(MIB);
    for (let i = 0; i < 10; i++) {
      clock.now = i * 500;
      fromView({ jsonrpc: '2.0', id: i, method: 'ui/update-model-context', params: { content: [{ type: 'text', text: pad }] } });
    }
    expect(toHost.filter((m) => m.data.method === 'ui/update-model-context')).toHaveLength(3);
    expect(notices(toHost)[0]).toMatchObject({ received: 4, windowMs: 1500, dropped: 1, bytesLimit: 4 * MIB });
  });

  it('passes a view that stays under the limits, and never relays a notice the view forged', async () => {
    const { toHost, fromView, clock } = await proxyPage();
    for (let i = 0; i < 1000; i++) {
      clock.now = 1000 + i * 10; // 100 a second
      fromView({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: i } });
    }
    fromView({ jsonrpc: '2.0', method: SANDBOX_FLOODED_METHOD, params: { received: 1, windowMs: 0, perSecond: 1, dropped: 0 } });
    expect(toHost.filter((m) => m.data.method === 'ui/notifications/size-changed')).toHaveLength(1000);
    expect(notices(toHost)).toEqual([]);
  });
});
