import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BridgeFrame } from '../../../lib/client/app-bridge-transport';
import { createAppHost } from '../../../lib/client/app-host';

/**
 * Leaving a page while an app view is open: the frame disappears before the host hears about it,
 * and resizes or theme changes still arrive. ext-apps' real AppBridge sends those context changes
 * without catching, so nothing the transport does on a gone frame may reject: the page must show
 * no uncaught error, and the host must not report one either.
 */

const SANDBOX = 'http://localhost:3001';

describe('app host teardown after the frame is gone', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
    vi.unstubAllGlobals();
  });

  it('drops messages to a removed frame quietly and tears down without errors', async () => {
    process.on('unhandledRejection', onUnhandled);
    const events = new EventTarget();
    vi.stubGlobal('window', events);
    const posted: unknown[] = [];
    const frameWindow = { postMessage: (m: unknown) => posted.push(m) };
    const frame = { contentWindow: frameWindow as unknown } as { contentWindow: unknown };
    const frames: BridgeFrame[] = [];
    const errors: Error[] = [];
    let initialized = false;
    const host = createAppHost({
      frame: frame as HTMLIFrameElement,
      sandboxOrigin: SANDBOX,
      viewId: 'v1',
      tool: { name: 'notes_timeline', inputSchema: { type: 'object' } },
      serverTools: () => [],
      resource: { uri: 'ui://notes/timeline.html', html: '<p>hi</p>', meta: {}, digest: '0', ttlMs: 0, cacheScope: 'private' },
      hostContext: { theme: 'light' },
      callTool: async () => ({ type: 'abandoned' }) as never,
      readResource: async () => ({ type: 'abandoned' }) as never,
      record: (f) => frames.push(f),
      onError: (e) => errors.push(e),
      onInitialized: () => {
        initialized = true;
      },
    });
    await host.connect();
    const deliver = (data: unknown) => events.dispatchEvent(Object.assign(new Event('message'), { data, source: frameWindow, origin: SANDBOX }));
    deliver({
      jsonrpc: '2.0',
      id: 1,
      method: 'ui/initialize',
      params: { appInfo: { name: 'v', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' },
    });
    await vi.waitFor(() => expect(posted.some((m) => (m as { id?: unknown }).id === 1)).toBe(true));
    deliver({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    await vi.waitFor(() => expect(initialized).toBe(true));

    // The page moves on: the frame element is gone, then a resize and a theme change arrive.
    frame.contentWindow = null;
    host.updateContext({ containerDimensions: { maxHeight: 300 } });
    host.updateContext({ theme: 'dark' });
    const closing = host.teardown();
    host.updateContext({ theme: 'light' });
    await closing;
    host.updateContext({ theme: 'dark' });
    await new Promise((r) => setTimeout(r, 0));

    expect(unhandled).toEqual([]);
    expect(errors).toEqual([]);
    const dropped = frames.filter((f) => f.errorText === 'Not delivered: the sandbox frame is gone');
    // The resize and the theme change before teardown, then teardown's request and, at its timeout, its cancellation: each logged as not delivered.
    expect(dropped.map((f) => f.method)).toEqual([
      'ui/notifications/host-context-changed',
      'ui/notifications/host-context-changed',
      'ui/resource-teardown',
      'notifications/cancelled',
    ]);
  });
});
