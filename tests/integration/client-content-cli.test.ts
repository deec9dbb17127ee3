import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, startCliMock, type Started, runCli, CLI } from '../helpers/processes';

/**
 * The headless client's resources, prompts and completion commands, over HTTP (`--url`) and over
 * stdio (`-- command args`, a child the CLI spawns itself): the demo mock both ways, a scenario
 * with completions, a 2025-11-25 server that pages its resources, and the official SDK 1.32.2
 * server over stdio asking for input with elicitation/create. Exit codes 0/1/2 and --json errors
 * as for the other client commands.
 */

const DEMO_STDIO = ['--', process.execPath, CLI, 'mock', 'demo', '--stdio', '--store', 'memory'];
const SDK1_STDIO = ['--', process.execPath, path.join(ROOT, 'tests/fixtures/servers/sdk1-elicit.mjs')];

const cli = (args: string[]) => runCli(args);

const COMPLETING = {
  id: 'completing',
  server: { name: 'completing', version: '1.0.0' },
  tools: [],
  prompts: [
    {
      name: 'weather',
      arguments: [{ name: 'city', required: true }],
      messages: [{ role: 'user', content: { type: 'text', text: 'Weather in {{args.city}}?' } }],
    },
  ],
  completions: [{ ref: { type: 'ref/prompt', name: 'weather' }, argument: 'city', values: ['Paris', 'Parma', 'Oslo'] }],
};

/** A 2025-11-25 server whose resources/list comes in two pages. */
function pagingServer() {
  const cursors: (string | undefined)[] = [];
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const c of req) raw += c;
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const msg = JSON.parse(raw) as { id?: number; method: string; params?: { cursor?: string } };
    if (msg.id === undefined) return void res.writeHead(202).end();
    let result: Record<string, unknown> = {};
    if (msg.method === 'initialize') result = { protocolVersion: '2025-11-25', capabilities: { resources: {} }, serverInfo: { name: 'pages', version: '1' } };
    if (msg.method === 'resources/list') {
      cursors.push(msg.params?.cursor);
      result =
        msg.params?.cursor === 'p2'
          ? { resources: [{ uri: 'file:///b.txt', name: 'b' }] }
          : { resources: [{ uri: 'file:///a.txt', name: 'a' }], nextCursor: 'p2' };
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
  });
  return { server, cursors };
}

describe('mcp-loupe resources, read, templates, prompts, get-prompt, complete', () => {
  let dir: string;
  let demo: Started;
  let completing: Started;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-content-cli-'));
    const file = path.join(dir, 'completing.json');
    fs.writeFileSync(file, JSON.stringify(COMPLETING));
    [demo, completing] = await Promise.all([
      startCliMock(['demo', '--data-dir', path.join(dir, 'a')]),
      startCliMock([file, '--data-dir', path.join(dir, 'b')]),
    ]);
  });
  afterAll(async () => {
    await Promise.all([demo?.stop(), completing?.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['HTTP', () => ['--url', demo.url]],
    ['stdio', () => DEMO_STDIO],
  ])('lists and reads the demo resources and gets its prompt over %s', async (_how, target) => {
    const resources = await cli(['resources', '--json', ...target()]);
    expect(resources.code).toBe(0);
    expect((JSON.parse(resources.stdout) as { resources: { uri: string }[] }).resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(['notes://index', 'notes://about']),
    );
    const read = await cli(['read', 'notes://about', ...target()]);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('Loupe demo server');
    const prompts = await cli(['prompts', ...target()]);
    expect(prompts.stdout).toContain('summarize_notes (style?)');
    const prompt = await cli(['get-prompt', 'summarize_notes', 'style=terse', ...target()]);
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toContain('in this style: terse');
    const call = await cli(['call', 'echo', 'text=over both', ...target()]);
    expect(call.stdout).toContain('over both');
  });

  it('completes a prompt argument, refuses templates where there are none, and lists resources page by page', async () => {
    const c = await cli(['complete', '--prompt', 'weather', '--arg', 'city=par', '--url', completing.url]);
    expect(c.code).toBe(0);
    expect(c.stdout.split('\n').slice(0, 2)).toEqual(['Paris', 'Parma']);
    const json = await cli(['complete', '--prompt', 'weather', '--arg', 'city=o', '--json', '--url', completing.url]);
    expect(JSON.parse(json.stdout).completion.values).toEqual(['Oslo']);
    // A server without resources answers the method as unknown: exit 1 with the JSON-RPC error.
    const templates = await cli(['templates', '--url', completing.url]);
    expect(templates.code).toBe(1);
    expect(templates.stderr).toContain('JSON-RPC error -32601');
    const { server, cursors } = pagingServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      const all = await cli(['resources', '--url', url]);
      expect(all.stdout).toContain('file:///a.txt  a');
      expect(all.stdout).toContain('file:///b.txt  b');
      expect(cursors).toEqual([undefined, 'p2']);
      const one = await cli(['resources', '--json', '--url', url]);
      expect(JSON.parse(one.stdout).resources).toHaveLength(2);
      const first = await cli(['resources', '--cursor', 'p1', '--json', '--url', url]);
      expect(JSON.parse(first.stdout)).toMatchObject({ resources: [{ uri: 'file:///a.txt' }], nextCursor: 'p2' });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('answers the SDK 1.32.2 server over stdio: its elicitation/create gets the stub, defaults filled in', async () => {
    const run = await cli(['call', 'confirm_delete', 'id=n1', '--elicit-stub', '{"confirm":true}', ...SDK1_STDIO]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('elicitation accept');
    expect(run.stdout).toContain('"confirm":true');
    expect(run.stdout).toContain('"reason":"tidy"');
    // The SDK refuses server/discover with a JSON-RPC error: the ordinary way to the handshake, not warned about.
    expect(run.stderr).not.toContain('warning');
    const prompt = await cli(['get-prompt', 'greet', 'name=Ada', ...SDK1_STDIO]);
    expect(prompt.stdout).toContain('user: Hello Ada');
  });

  it('follows 2025-11-25 tasks that ask for input (the SDK 1.32.2 interactive task example): elicitation and sampling answered on the tasks/result stream', async () => {
    const port = await freePort();
    const example = path.join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleTaskInteractive.js');
    const child = spawn(process.execPath, [example], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => child.stdout?.on('data', (d: Buffer) => d.toString().includes('Starting server') && resolve()));
      const url = `http://127.0.0.1:${port}/mcp`;
      const confirm = await cli(['call', 'confirm_delete', 'filename=a.txt', '--task', '--wait', '--elicit-stub', '{"confirm":true}', '--url', url]);
      expect(confirm.code, confirm.stderr).toBe(0);
      expect(confirm.stdout).toContain("Deleted 'a.txt'");
      const haiku = await cli(['call', 'write_haiku', 'topic=sea', '--task', '--wait', '--sampling-stub', 'waves fold into foam', '--url', url]);
      expect(haiku.code, haiku.stderr).toBe(0);
      expect(haiku.stdout).toContain('waves fold into foam');
    } finally {
      child.kill();
    }
  });

  it('reports failures with exit 1 (JSON with --json) and usage mistakes with exit 2', async () => {
    const missing = await cli(['read', 'notes://nope', '--json', '--url', demo.url]);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error).toMatchObject({ code: 'rpc' });
    const noServer = await cli(['resources']);
    expect(noServer.code).toBe(2);
    expect(noServer.stderr).toContain('no server: give --url URL, or a stdio server after --');
    const both = await cli(['resources', '--url', demo.url, ...DEMO_STDIO]);
    expect(both.code).toBe(2);
    const noRef = await cli(['complete', '--arg', 'city=p', '--url', completing.url]);
    expect(noRef.code).toBe(2);
    const gone = await cli(['resources', '--', path.join(dir, 'no-such-server')]);
    expect(gone.code).toBe(1);
  });
});
