import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHeadlessSession, stubAnswerer } from '../../lib/client/headless';
import { createHttpTransport } from '../../lib/client/http-transport';
import { createClientSession } from '../../lib/client/session';
import { type Sdk1Server, startSdk1Server } from '../helpers/sdk1-server';

/**
 * 2025-11-25 Streamable HTTP, session management: a server restarted mid-session answers 404 to
 * the old Mcp-Session-Id, and the client MUST start a new session with a fresh initialize. Against
 * the official SDK 1.32.2 server (tests/fixtures/servers/sdk1-elicit.mjs), stopped and started
 * again on the same port.
 */

const textOf = (out: { type: string; result?: unknown }) => (out.type === 'complete' ? JSON.stringify((out.result as { content?: unknown }).content) : '');

describe('a SDK 1.32.2 server restarted mid-session', () => {
  let server: Sdk1Server | undefined;
  let url: string;
  const restart = async () => {
    const port = server?.port ?? 0;
    await server?.stop();
    server = await startSdk1Server(port);
  };
  beforeAll(async () => {
    server = await startSdk1Server();
    url = server.url;
  });
  afterAll(() => server?.stop());

  it('the session GET stream sees the 404, a new session is started, and the server can ask again', async () => {
    const warnings: string[] = [];
    const session = createHeadlessSession({
      url,
      era: 'auto',
      capabilities: { elicitation: { form: {} } },
      onServerRequest: stubAnswerer({ elicit: { name: 'Bo' } }),
      onWarning: (w) => warnings.push(w),
    });
    try {
      expect((await session.listTools()).outcome.type).toBe('complete');
      await restart();
      await vi.waitFor(() => expect(warnings.join('\n')).toContain('starting a new session with initialize'), { timeout: 10_000, interval: 100 });
      const asked = await session.callTool('ask_aside', {}, { timeoutMs: 10_000 });
      expect(textOf(asked)).toContain('aside accept {\\"name\\":\\"Bo\\"}');
    } finally {
      await session.close();
    }
  });

  it('a request that gets the 404 renews the session: a safe one is sent again, a tool call is left to the user', async () => {
    // No GET stream here, so the request itself is the first to learn of the restart.
    const warnings: string[] = [];
    const session = createClientSession({ transport: createHttpTransport({ url }), era: 'legacy', onWarning: (w) => warnings.push(w) });
    try {
      expect((await session.listTools()).outcome.type).toBe('complete');
      await restart();
      const listed = await session.listTools();
      expect(listed.outcome.type).toBe('complete');
      expect(listed.tools.map((t) => t.name)).toContain('ask_aside');
      expect(warnings.join('\n')).toContain('starting a new session with initialize');
      await restart();
      const called = await session.callTool('log_aside', {});
      expect(called.type).toBe('failure');
      expect(called.type === 'failure' && called.reason).toBe('session-renewed');
      expect(called.type === 'failure' && called.message).toContain('send it again');
      // The new session works: the same call goes through.
      expect(textOf(await session.callTool('log_aside', {}))).toContain('logged');
    } finally {
      await session.close();
    }
  });
});
