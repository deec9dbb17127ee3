import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BridgeFrame } from '../../../lib/client/app-bridge-transport';
import { hostOnFakeFrame } from '../../helpers/app-host-frame';

/**
 * Leaving a page while an app view is open: the frame disappears before the host hears about it,
 * and resizes or theme changes still arrive. ext-apps' real AppBridge sends those context changes
 * without catching, so nothing the transport does on a gone frame may reject: the page must show
 * no uncaught error, and the host must not report one either.
 */

describe('app host teardown after the frame is gone', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
    vi.unstubAllGlobals();
  });

  it('drops messages to a removed frame quietly and tears down without errors', async () => {
    process.on('unhandledRejection', onUnhandled);
    const frames: BridgeFrame[] = [];
    const errors: Error[] = [];
    let initialized = false;
    const { host, frame, posted, deliver, initialize } = hostOnFakeFrame({
      record: (f) => frames.push(f),
      onError: (e) => errors.push(e),
      onInitialized: () => {
        initialized = true;
      },
    });
    await host.connect();
    initialize();
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
