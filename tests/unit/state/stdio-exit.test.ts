import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStdioProxy } from '../../../lib/server/proxy-stdio';
import { lastStderr } from '../../../lib/state/server-output-slice';
import { createInspectorStore } from '../../../lib/state/inspector-store';

/**
 * A stdio server's output and exit reach the inspector's state: its stderr, stray stdout and exit
 * are in `serverOutput`, and the exit ends the connection at once ("the server process exited
 * with code 7", with its last stderr lines) instead of leaving it "connected". The child is real,
 * spawned by the real stdio proxy handler, which the store reaches through `fetch`.
 */

const FIXTURE = path.resolve(__dirname, '../../fixtures/servers/crashing-stdio-server.mjs');
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function storeWithProxy() {
  const proxy = createStdioProxy({ detachedMs: 2_000 });
  const fetch = (input: string, init: RequestInit) => {
    const url = new URL(input, 'http://127.0.0.1');
    const parts = url.pathname
      .replace(/^\/api\/proxy\/stdio\/?/, '')
      .split('/')
      .filter(Boolean);
    return proxy.handle(new Request(url, init), parts);
  };
  const store = createInspectorStore({ scheduleLint: () => {}, fetch });
  cleanups.push(() => proxy.close());
  cleanups.push(() => store.getState().connection.disconnect());
  return store;
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a stdio server that writes to stderr and exits', () => {
  it('keeps its output, and its exit ends the connection with the code and the stderr lines', async () => {
    const store = storeWithProxy();
    const c = () => store.getState().connection;
    await c().connect({ mode: 'stdio', url: `"${process.execPath}" "${FIXTURE}"`, era: 'modern' });
    expect(c().status).toBe('connected');
    await until(() => store.getState().serverOutput.lines.length >= 2);
    expect(store.getState().serverOutput.lines.map((l) => [l.stream, l.text])).toEqual([
      ['stderr', 'crashing-fixture: listening on stdin'],
      ['stdout', 'not json: a banner on stdout'],
    ]);

    const out = await c().session!.callTool('explode', {});
    expect(out.type).not.toBe('complete');
    await until(() => c().status === 'error');
    expect(c().error).toBe('the server process exited with code 7');
    expect(c().problem).toMatchObject({ exited: true, fix: expect.stringContaining('Connect') });
    await until(() => store.getState().serverOutput.lines.some((l) => l.stream === 'exit'));
    const { lines } = store.getState().serverOutput;
    expect(lastStderr(lines, c().epoch)).toEqual([
      'crashing-fixture: listening on stdin',
      'FATAL: <b>database</b> connection lost',
      '    at explode (crashing-stdio-server.mjs:17)',
    ]);
    expect(lines.at(-1)).toMatchObject({ stream: 'exit', text: 'the server process exited with code 7', epoch: c().epoch });

    // Connect starts it again: a new child, connected, its lines under the new epoch.
    const before = c().epoch;
    await c().connect();
    expect(c().status).toBe('connected');
    expect(c().epoch).toBe(before + 1);
    await until(() => lastStderr(store.getState().serverOutput.lines, c().epoch).length === 1);
  }, 30_000);

  it('a server that dies while connecting fails with its exit, not a generic stream error', async () => {
    const store = storeWithProxy();
    const c = () => store.getState().connection;
    await c().connect({ mode: 'stdio', url: `"${process.execPath}" -e "console.error('FATAL: missing API_KEY'); process.exit(3)"`, era: 'modern' });
    expect(c().status).toBe('error');
    expect(c().error).toBe('the server process exited with code 3');
    await until(() => lastStderr(store.getState().serverOutput.lines, c().epoch).length === 1);
    expect(lastStderr(store.getState().serverOutput.lines, c().epoch)).toEqual(['FATAL: missing API_KEY']);
  }, 30_000);
});
