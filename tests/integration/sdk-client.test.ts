import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliMock, type Started } from '../helpers/processes';

/**
 * An independent, strict client (the official TypeScript SDK v2, pinned to 2026-07-28)
 * discovers the demo mock, lists its tools and calls every one of them over real HTTP.
 */
describe('@modelcontextprotocol/client@2.4.0 against the demo mock', () => {
  let dataDir: string;
  let mock: Started;
  let client: Client;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sdk-'));
    mock = await startCliMock(['demo', '--data-dir', dataDir]);
    client = new Client(
      { name: 'sdk-integration', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
    );
    // delete_note asks for confirmation with MRTR; the SDK fulfils it through this handler.
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  });
  afterAll(async () => {
    await client?.close();
    await mock?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('discovers the server at 2026-07-28', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'loupe-demo' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } });
  });

  it('lists the demo tools sorted by name', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['charge', 'delete_note', 'echo', 'generate_report', 'search_notes', 'workspace_read']));
  });

  it('calls every demo tool', async () => {
    const { tools } = await client.listTools();
    const args: Record<string, Record<string, unknown>> = {
      echo: { text: 'hello from the SDK' },
      charge: { account: 'acct-sdk', amountCents: 500, idempotencyKey: 'sdk-1' },
      delete_note: { noteId: 'note-1' },
      workspace_read: { workspaceUri: 'file:///workspace/demo', path: 'README.md' },
      search_notes: {},
      generate_report: { size: 'small' },
    };
    for (const tool of tools) {
      const a = args[tool.name] ?? {};
      if (tool.name === 'generate_report') {
        // Runs only as a task: a client without the tasks extension gets -32021 naming it.
        await expect(client.callTool({ name: tool.name, arguments: a })).rejects.toMatchObject({ code: -32021 });
        continue;
      }
      const result = await client.callTool({ name: tool.name, arguments: a });
      expect(result.isError ?? false, `${tool.name}: ${JSON.stringify(result)}`).toBe(false);
      expect(Array.isArray(result.content)).toBe(true);
      if (tool.name === 'echo') expect(result.content).toEqual([{ type: 'text', text: 'hello from the SDK' }]);
      if (tool.name === 'delete_note') expect(result.structuredContent).toMatchObject({ deleted: true, noteId: 'note-1' });
      if (tool.name === 'charge') expect(result.structuredContent).toMatchObject({ replayed: false });
    }
  });
});
