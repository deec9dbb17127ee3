import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scenarioEventStream } from '../../../lib/server/control-events';
import { createMockHost, type MockHost } from '../../../lib/server/mock-host';
import { callTool } from '../../helpers/rpc';

/** The control room's event stream: bounded for a reader that stops reading, released on abort. */

describe('scenario event stream', () => {
  let dataDir: string;
  let host: MockHost;
  let listeners = 0;
  let counted: MockHost;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'loupe-events-'));
    host = createMockHost({ dataDir });
    listeners = 0;
    counted = {
      ...host,
      on(l) {
        listeners++;
        const off = host.on(l);
        return () => {
          listeners--;
          off();
        };
      },
    };
  });
  afterEach(() => {
    host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('cuts off a reader that falls too far behind instead of queueing without bound', async () => {
    const response = scenarioEventStream(counted, 'demo', new AbortController().signal, { maxQueued: 5 });
    expect(listeners).toBe(1);
    const engine = host.engine('demo')!;
    for (let i = 0; i < 20; i++) await callTool(engine, 'echo', { text: `n${i}` });
    expect(listeners).toBe(0);
    const text = await response.text();
    expect(text.startsWith('retry: 1000\n\nevent: scenario:snapshot\n')).toBe(true);
    expect(text.split('event: journal:').length - 1).toBeLessThan(20);
  });

  it('lets go of its subscription when the request is aborted', async () => {
    const ac = new AbortController();
    const response = scenarioEventStream(counted, 'demo', ac.signal, { keepAliveMs: 10 });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('retry: 1000');
    ac.abort();
    expect(listeners).toBe(0);
    for (;;) if ((await reader.read()).done) break;
  });
});
