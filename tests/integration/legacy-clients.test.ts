import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startCliMock, type Started } from '../helpers/processes';

/**
 * Real 2025-11-25 clients against the mock, over stdio and Streamable HTTP: the official SDK
 * 1.32.2 (initialize, then input asked with real elicitation/create requests, answered by the
 * client) and the SDK v2 client in `auto` mode, which probes with server/discover and falls back
 * to initialize against a server that speaks 2025-11-25 only.
 */

const CLI = path.join(ROOT, 'bin', 'mcp-loupe.mjs');
const stdioParams = (scenario: string) => ({
  command: process.execPath,
  args: [CLI, 'mock', scenario, '--stdio', '--store', 'memory'],
  stderr: 'ignore' as const,
});

/** An SDK 1.32.2 client that declares form elicitation and answers every form with `content`. */
function legacyClient(content: Record<string, unknown>, asked: unknown[]): Client {
  const client = new Client({ name: 'sdk-1.32.2', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params);
    return { action: 'accept', content };
  });
  return client;
}

/** Run generate_report as a 2025-11-25 task and answer its outline approval; the last message of the stream. */
async function runReportTask(client: Client): Promise<{ type: string; result?: unknown; statuses: string[] }> {
  const statuses: string[] = [];
  let last: { type: string; result?: unknown } = { type: 'none' };
  for await (const m of client.experimental.tasks.callToolStream({ name: 'generate_report', arguments: { size: 'small' } }, undefined, {
    task: { ttl: 60_000 },
  })) {
    if (m.type === 'taskCreated' || m.type === 'taskStatus') statuses.push(m.task.status);
    last = m;
  }
  return { ...last, statuses };
}

/** The journeys a 2025-11-25 client takes through the demo, on any transport. */
function demoJourneys(connect: () => Promise<{ client: Client; asked: unknown[]; close: () => Promise<void> }>) {
  let client: Client;
  let asked: unknown[];
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ client, asked, close } = await connect());
  });
  afterAll(async () => close?.());

  it('initializes at 2025-11-25 and lists the demo tools without 2026-07-28 fields', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'loupe-demo' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['delete_note', 'generate_report', 'echo']));
  });

  it('delete_note asks for confirmation with elicitation/create, and the accepted answer deletes the note', async () => {
    const before = asked.length;
    const result = await client.callTool({ name: 'delete_note', arguments: { noteId: 'note-2' } });
    expect(asked.slice(before)).toEqual([expect.objectContaining({ message: expect.stringContaining('Delete note'), requestedSchema: expect.any(Object) })]);
    expect(result.structuredContent).toMatchObject({ deleted: true, noteId: 'note-2' });
    expect(result).not.toHaveProperty('resultType');
  });

  it('generate_report runs as a 2025-11-25 task whose input is asked on tasks/result and answered by the client', async () => {
    const before = asked.length;
    const run = await runReportTask(client);
    expect(run.type, JSON.stringify(run)).toBe('result');
    expect(run.statuses[0]).toBe('working');
    expect(asked.slice(before)).toEqual([expect.objectContaining({ message: expect.stringContaining('outline') })]);
    expect(run.result).toMatchObject({ structuredContent: { generated: true } });
  });
}

describe('SDK 1.32.2 over stdio against `mock demo --stdio`', () => {
  demoJourneys(async () => {
    const asked: unknown[] = [];
    const client = legacyClient({ confirm: true, approved: true }, asked);
    const transport = new StdioClientTransport(stdioParams('demo'));
    await client.connect(transport);
    return { client, asked, close: () => client.close() };
  });
});

describe('SDK 1.32.2 over Streamable HTTP against `mock demo`', () => {
  let mock: Started;
  let dataDir: string;
  let transport: StreamableHTTPClientTransport;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-legacy-'));
    mock = await startCliMock(['demo', '--data-dir', dataDir]);
  });
  afterAll(async () => {
    await mock?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  demoJourneys(async () => {
    const asked: unknown[] = [];
    const client = legacyClient({ confirm: true, approved: true }, asked);
    transport = new StreamableHTTPClientTransport(new URL(mock.url));
    await client.connect(transport as Transport);
    return { client, asked, close: () => client.close() };
  });

  it('holds a session: initialize returned Mcp-Session-Id, DELETE ends it and the old id then gets 404', async () => {
    const id = transport.sessionId;
    expect(id).toMatch(/^[\w-]{16,}$/);
    await transport.terminateSession();
    const res = await fetch(mock.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Mcp-Session-Id': id!,
        'MCP-Protocol-Version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
  });
});

describe('SDK 1.32.2 over stdio against `mock legacy-server --stdio`', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'sdk-1.32.2', version: '1.0.0' });
    await client.connect(new StdioClientTransport(stdioParams('legacy-server')));
  });
  afterAll(async () => client?.close());

  it('initializes and calls a tool', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'loupe-legacy-docs' });
    const result = await client.callTool({ name: 'lookup_word', arguments: { word: 'loupe' } });
    expect(result.content).toEqual([{ type: 'text', text: 'loupe: a word worth looking up.' }]);
  });
});

describe("SDK v2 in 'auto' mode over stdio against `mock legacy-server --stdio`", () => {
  let client: ClientV2;
  beforeAll(async () => {
    client = new ClientV2({ name: 'sdk-v2-auto', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StdioTransportV2(stdioParams('legacy-server')));
  });
  afterAll(async () => client?.close());

  it('falls back to initialize after -32022 and then lists and calls tools', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'loupe-legacy-docs' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['lookup_word', 'summarize_document', 'transcode_video']);
    const result = await client.callTool({ name: 'lookup_word', arguments: { word: 'era' } });
    expect(result.content).toEqual([{ type: 'text', text: 'era: a word worth looking up.' }]);
  });
});

describe("SDK v2 in 'auto' mode over stdio against `mock demo --stdio`", () => {
  let client: ClientV2;
  beforeAll(async () => {
    client = new ClientV2({ name: 'sdk-v2-auto', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StdioTransportV2(stdioParams('demo')));
  });
  afterAll(async () => client?.close());

  it('stays at 2026-07-28 (the probe finds a modern server) and calls a tool', async () => {
    expect(client.getServerCapabilities()).toMatchObject({ extensions: { 'io.modelcontextprotocol/tasks': {} } });
    const result = await client.callTool({ name: 'echo', arguments: { text: 'stdio modern' } });
    expect(result.content).toEqual([{ type: 'text', text: 'stdio modern' }]);
  });
});

describe("SDK v2 in 'auto' mode over HTTP against `mock legacy-server` and `mock demo`", () => {
  let mock: Started;
  let dataDir: string;
  const clients: ClientV2[] = [];
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-auto-'));
    mock = await startCliMock(['legacy-server', '--data-dir', dataDir]);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await mock?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const connect = async (url: string) => {
    const client = new ClientV2({ name: 'sdk-v2-auto', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    clients.push(client);
    await client.connect(new HttpTransportV2(new URL(url)));
    return client;
  };

  it('falls back to a 2025-11-25 session against legacy-server and calls a tool', async () => {
    const client = await connect(mock.url);
    expect(client.getServerVersion()).toMatchObject({ name: 'loupe-legacy-docs' });
    const result = await client.callTool({ name: 'lookup_word', arguments: { word: 'http' } });
    expect(result.content).toEqual([{ type: 'text', text: 'http: a word worth looking up.' }]);
  });

  it('stays at 2026-07-28 against the dual-era demo', async () => {
    const client = await connect(mock.url.replace(/\/mcp$/, '/mcp/demo'));
    expect(client.getServerCapabilities()).toMatchObject({ extensions: { 'io.modelcontextprotocol/tasks': {} } });
    const result = await client.callTool({ name: 'echo', arguments: { text: 'modern' } });
    expect(result.content).toEqual([{ type: 'text', text: 'modern' }]);
  });
});
