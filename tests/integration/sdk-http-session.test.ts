import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Frame } from '../../lib/client/frames';
import { createHeadlessSession, stubAnswerer } from '../../lib/client/headless';
import { parseRecording } from '../../lib/recording/schema';
import { runCli } from '../helpers/processes';
import { type Sdk1Server, startSdk1Server } from '../helpers/sdk1-server';

/**
 * A 2025-11-25 session over Streamable HTTP against the official SDK 1.32.2 server
 * (tests/fixtures/servers/sdk1-elicit.mjs): what the server sends on the session's standalone
 * GET stream (server.server.elicitInput, a log notification) reaches the client, is answered
 * and shows in the frames and in a CLI recording; and a server restarted mid-session (its 404
 * to the old Mcp-Session-Id) gets a fresh initialize, as the transport spec says a client MUST.
 */

const textOf = (out: { type: string; result?: unknown }) => (out.type === 'complete' ? JSON.stringify((out.result as { content?: unknown }).content) : '');

describe('the session GET stream of the SDK 1.32.2 server', () => {
  let server: Sdk1Server | undefined;
  let url: string;
  beforeAll(async () => {
    server = await startSdk1Server();
    url = server.url;
  });
  afterAll(() => server?.stop());

  it('answers an elicitation sent on the GET stream, and shows the stream and a log notification in the frames', async () => {
    const frames: Frame[] = [];
    const session = createHeadlessSession({
      url,
      era: 'auto',
      capabilities: { elicitation: { form: {} } },
      onServerRequest: stubAnswerer({ elicit: { name: 'Ada' } }),
      onFrame: (f) => frames.push(f),
    });
    try {
      const asked = await session.callTool('ask_aside', {}, { timeoutMs: 10_000 });
      expect(textOf(asked)).toContain('aside accept {\\"name\\":\\"Ada\\"}');
      const logged = await session.callTool('log_aside', {});
      expect(textOf(logged)).toContain('logged');
      // The log goes out on the GET stream while the call's answer goes on its own: either may come first.
      await vi.waitFor(() => expect(frames.some((f) => f.kind === 'sse-frame' && f.method === 'notifications/message')).toBe(true));
    } finally {
      await session.close();
    }
    const get = frames.find((f) => f.kind === 'http-request' && f.body === undefined);
    expect(get?.headers?.accept).toBe('text/event-stream');
    expect(get?.headers?.['mcp-session-id']).toBeTruthy();
    const onGet = frames.filter((f) => f.exchangeId === get?.exchangeId);
    expect(onGet.some((f) => f.kind === 'sse-frame' && f.method === 'elicitation/create')).toBe(true);
    expect(onGet.some((f) => f.kind === 'sse-frame' && f.method === 'notifications/message')).toBe(true);
    // The answer is its own POST, labelled with the method it answers.
    expect(frames.some((f) => f.kind === 'http-request' && f.method === 'elicitation/create' && f.direction === 'out')).toBe(true);
  });

  it('call --record keeps the GET stream: the elicitation the server sent there and the answer', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-get-rec-'));
    try {
      const file = path.join(dir, 'get.loupe.json');
      const run = await runCli(['call', 'ask_aside', '--url', url, '--elicit-stub', '{"name":"Ada"}', '--record', file], { timeoutMs: 30_000 });
      expect(run.stderr).not.toContain('mcp-loupe:');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('aside accept');
      const opened = parseRecording(fs.readFileSync(file, 'utf8'));
      if (!opened.ok) throw new Error(opened.error);
      const frames = opened.recording.frames;
      const asked = frames.find((f) => f.kind === 'sse-frame' && f.method === 'elicitation/create');
      expect(asked).toBeDefined();
      const get = frames.find((f) => f.kind === 'http-request' && f.exchangeId === asked?.exchangeId);
      expect(get?.body).toBeUndefined();
      expect(frames.some((f) => f.kind === 'sse-open' && f.exchangeId === asked?.exchangeId)).toBe(true);
      // Closing the session ends the stream, and the recording says so.
      expect(frames.find((f) => f.kind === 'sse-close' && f.exchangeId === asked?.exchangeId)?.closeReason).toBe('client-closed');
      expect(frames.some((f) => f.kind === 'http-request' && f.method === 'elicitation/create' && f.exchangeId !== asked?.exchangeId)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
