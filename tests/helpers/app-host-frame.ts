import { vi } from 'vitest';
import { createAppHost } from '../../lib/client/app-host';

type AppHostOptions = Parameters<typeof createAppHost>[0];

/** The sandbox origin the fake frame speaks from. */
export const SANDBOX = 'http://localhost:3001';

/**
 * An app host on a fake sandbox frame, for unit tests: `window` is stubbed with an event target
 * (undo with `vi.unstubAllGlobals()`), what the host posts to the frame lands in `posted`, and
 * `deliver` is a message from the frame. `initialize` sends the view's ui/initialize (id 1).
 */
export function hostOnFakeFrame(options: Partial<AppHostOptions> = {}) {
  const events = new EventTarget();
  vi.stubGlobal('window', events);
  const posted: Record<string, unknown>[] = [];
  const frameWindow = { postMessage: (m: Record<string, unknown>) => posted.push(m) };
  const frame = { contentWindow: frameWindow as unknown } as { contentWindow: unknown };
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
    ...options,
  });
  const deliver = (data: unknown) => events.dispatchEvent(Object.assign(new Event('message'), { data, source: frameWindow, origin: SANDBOX }));
  const initialize = () =>
    deliver({
      jsonrpc: '2.0',
      id: 1,
      method: 'ui/initialize',
      params: { appInfo: { name: 'v', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' },
    });
  return { host, frame, posted, deliver, initialize };
}
