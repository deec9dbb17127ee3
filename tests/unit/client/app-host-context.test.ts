import { afterEach, describe, expect, it, vi } from 'vitest';
import { hostOnFakeFrame } from '../../helpers/app-host-frame';

/**
 * The host context a view gets: its container's size is observed after the frame's first layout
 * (the page no longer forces one to read it at mount), which is before the view's handshake, so
 * ui/initialize answers with it; what changes after the view asked goes out as a change.
 */

describe('app host context before the handshake', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('answers ui/initialize with the context as changed before the view asked, and what changed after as a change', async () => {
    const { host, posted, deliver, initialize } = hostOnFakeFrame({ hostContext: { theme: 'light', containerDimensions: { maxWidth: 1200, maxHeight: 720 } } });
    await host.connect();
    host.updateContext({ containerDimensions: { width: 640, maxHeight: 720 } });
    initialize();
    await vi.waitFor(() => expect(posted.some((m) => m.id === 1)).toBe(true));
    const answer = posted.find((m) => m.id === 1) as { result: { hostContext: Record<string, unknown> } };
    expect(answer.result.hostContext.containerDimensions).toEqual({ width: 640, maxHeight: 720 });
    expect(answer.result.hostContext.theme).toBe('light');

    // A change after the view asked, before it said initialized, is not lost: it is sent as a change once it did.
    host.updateContext({ containerDimensions: { width: 500, maxHeight: 720 } });
    deliver({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    await vi.waitFor(() =>
      expect(posted.filter((m) => m.method === 'ui/notifications/host-context-changed').map((m) => m.params)).toEqual([
        { containerDimensions: { width: 500, maxHeight: 720 } },
      ]),
    );
    // Only that: the size the answer carried is not sent again.
    await new Promise((r) => setTimeout(r, 100));
    expect(posted.filter((m) => m.method === 'ui/notifications/host-context-changed')).toHaveLength(1);
    await host.teardown().catch(() => undefined);
  });
});
