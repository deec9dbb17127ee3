import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingsApiWriter, startServerReplay } from '../../lib/recording/autosave';
import { createRecorder } from '../../lib/recording/recorder';
import { parseRecording, type Recording } from '../../lib/recording/schema';
import { joinCommandLine } from '../../lib/state/connection-link';
import { createInspectorStore } from '../../lib/state/inspector-store';
import { recordingConnection } from '../../lib/state/recording-connection';
import { CLI, ROOT, runCli, startCliMock, type Started, startReplayProcess } from '../helpers/processes';

/**
 * Recordings of stdio servers, made by each producer (the CLI's `--record`, the stdio tap, the
 * inspector through the stdio proxy), served over HTTP by `mcp-loupe replay` (and the app's
 * `/mcp/replay/<id>`): real clients (our CLI, the official SDK 1.32.2 client) get the answers
 * the server gave. stdio has no HTTP head to replay; the answer must be JSON, or SSE when
 * notifications came before the response.
 */

const SDK1 = path.join(ROOT, 'tests/fixtures/servers/sdk1-stdio-server.mjs');
let dir: string;
let host: Started;
const node = process.execPath;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-replay-stdio-'));
  host = await startCliMock(['demo', '--data-dir', path.join(dir, 'host')]);
}, 30_000);
afterAll(async () => {
  await host?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `mcp-loupe mock conformance --stdio` as a command line (its own data dir). */
const mockStdio = (name: string) => [node, CLI, 'mock', 'conformance', '--stdio', '--data-dir', path.join(dir, name)];

/** What the SDK 1.32.2 client gets from the sdk1 fixture's tool and resource. */
async function sdkSession(client: Client, read = true) {
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const call = await client.callTool({ name: 'word_count', arguments: { text: 'one two three' } });
  return { server: client.getServerVersion(), tools, call, read: read ? await client.readResource({ uri: 'file:///readme.txt' }) : undefined };
}

async function sdkOverHttp(url: string, read = true) {
  const client = new Client({ name: 'sdk-replay', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return await sdkSession(client, read);
  } finally {
    await client.close();
  }
}

const opened = (file: string): Recording => {
  const r = parseRecording(fs.readFileSync(file, 'utf8'));
  if (!r.ok) throw new Error(r.error);
  return r.recording;
};

describe('replaying a stdio server recorded by `call --record`', () => {
  it('answers our CLI as the mock did over stdio (2026-07-28), progress notifications first on an SSE stream', async () => {
    const file = path.join(dir, 'cli-mock.loupe.json');
    const runs = [['tools'], ['call', 'test_tool_with_progress', '--json'], ['call', 'test_simple_text', '--json']];
    const original = [];
    for (const args of runs) original.push(await runCli([...args, '--record', file, '--', ...mockStdio('cli-mock')]));
    expect(original.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(opened(file).connection).toMatchObject({ transport: 'stdio', era: 'modern' });
    const replay = await startReplayProcess(file);
    try {
      for (const [i, args] of runs.entries()) {
        const again = await runCli([...args, '--url', replay.url]);
        expect({ code: again.code, stdout: again.stdout }).toEqual({ code: 0, stdout: original[i]!.stdout });
      }
      const res = await fetch(replay.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'mine' } },
        }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const events = (await res.text())
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)));
      expect(events.map((e) => e.method ?? `response ${e.id}`)).toEqual([
        'notifications/progress',
        'notifications/progress',
        'notifications/progress',
        'response 7',
      ]);
      expect(events[0].params.progressToken).toBe('mine');
    } finally {
      await replay.stop();
    }
  }, 60_000);

  it('answers the SDK client and our CLI as the SDK 1.32.2 server did over stdio (2025-11-25)', async () => {
    const file = path.join(dir, 'cli-sdk1.loupe.json');
    const tools = await runCli(['tools', '--record', file, '--', node, SDK1]);
    const call = await runCli(['call', 'word_count', 'text=one two three', '--json', '--record', file, '--', node, SDK1]);
    const read = await runCli(['read', 'file:///readme.txt', '--json', '--record', file, '--', node, SDK1]);
    expect([tools.code, call.code, read.code]).toEqual([0, 0, 0]);
    const replay = await startReplayProcess(file);
    try {
      expect((await runCli(['tools', '--url', replay.url])).stdout).toBe(tools.stdout);
      expect((await runCli(['call', 'word_count', 'text=one two three', '--json', '--url', replay.url])).stdout).toBe(call.stdout);
      const sdk = await sdkOverHttp(replay.url);
      expect(sdk.server).toMatchObject({ name: 'sdk1-stdio-fixture' });
      expect(sdk.tools).toEqual(['word_count']);
      expect(sdk.call.content).toEqual([{ type: 'text', text: '3 words' }]);
      expect(sdk.read?.contents).toEqual([{ uri: 'file:///readme.txt', mimeType: 'text/plain', text: 'Read me, through a tap.' }]);
    } finally {
      await replay.stop();
    }
  }, 60_000);
});

describe('replaying a stdio server recorded by `tap --record`', () => {
  it('gives the SDK client over HTTP what it got over stdio through the tap, and our CLI the tools', async () => {
    const file = path.join(dir, 'tap.loupe.json');
    const client = new Client({ name: 'sdk-tapped', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: node, args: [CLI, 'tap', '--record', file, '--', node, SDK1], stderr: 'ignore' }));
    const direct = await sdkSession(client);
    await client.close();
    // The tap rewrites the recording as it runs and completes it when it ends.
    for (let i = 0; i < 100 && !opened(file).frames.some((f) => f.method === 'resources/read' && f.direction === 'in'); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(opened(file).connection).toMatchObject({ transport: 'stdio' });
    const replay = await startReplayProcess(file);
    try {
      expect(await sdkOverHttp(replay.url)).toEqual(direct);
      const tools = await runCli(['tools', '--url', replay.url]);
      expect(tools.code).toBe(0);
      expect(tools.stdout).toContain('word_count');
    } finally {
      await replay.stop();
    }
  }, 60_000);
});

describe('replaying the inspector’s recording of a stdio session', () => {
  it('says stdio with the command line, and /mcp/replay/<id> and `mcp-loupe replay` answer the CLI and the SDK client', async () => {
    // The inspector's store in Node, through the stdio proxy of a running Loupe, recorded as
    // components/recording/use-session-recorder.ts records it.
    const base = new URL(host.url).origin;
    const fetchVia = (input: string, init: RequestInit) =>
      globalThis.fetch(new URL(input, base), { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${host.token}` } });
    const store = createInspectorStore({ scheduleLint: () => {}, fetch: fetchVia });
    const commandLine = joinCommandLine([node, SDK1]);
    const recorder = createRecorder({ connection: recordingConnection(store.getState().connection.config, undefined) });
    const off = store.getState().timeline.subscribeFrames((frames) => {
      for (const f of frames) recorder.sink(f);
    });
    let direct: { tools: string[]; call: unknown };
    try {
      await store.getState().connection.connect({ url: commandLine, mode: 'stdio', era: 'legacy' });
      expect(store.getState().connection.status).toBe('connected');
      const session = store.getState().connection.session!;
      const call = await session.callTool('word_count', { text: 'one two three' });
      direct = { tools: store.getState().connection.tools.map((t) => t.name), call: (call as { result: { content: unknown } }).result.content };
      recorder.setConnection(recordingConnection(store.getState().connection.config, store.getState().connection.server));
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      store.getState().connection.disconnect();
      off();
    }
    const name = 'inspector-stdio.loupe.json';
    await recordingsApiWriter({ base, token: host.token })(name, JSON.stringify(recorder.build()));
    const file = path.join(dir, 'host', 'recordings', name);
    expect(opened(file).connection).toMatchObject({ transport: 'stdio', target: commandLine, era: 'legacy' });

    const served = await startServerReplay(fs.readFileSync(file, 'utf8'), { base, token: host.token });
    if (!served.ok) throw new Error(served.error);
    const cli = await runCli(['tools', '--url', `${base}${served.path}`]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('word_count');
    const sdk = await sdkOverHttp(`${base}${served.path}`, false);
    expect({ tools: sdk.tools, call: sdk.call.content }).toEqual(direct);

    // A recording the inspector saved before its header said stdio (an HTTP target made up from
    // the command line) still replays: the stdio transport's placeholder heads are not replayed.
    const older = path.join(dir, 'older-inspector.loupe.json');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(
      older,
      JSON.stringify({ ...doc, connection: { ...doc.connection, transport: 'http', target: `${base}/${encodeURIComponent(commandLine)}` } }),
    );
    const replay = await startReplayProcess(older);
    try {
      expect(await sdkOverHttp(replay.url, false).then((s) => ({ tools: s.tools, call: s.call.content }))).toEqual(direct);
    } finally {
      await replay.stop();
    }
  }, 60_000);
});
