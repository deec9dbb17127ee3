import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, runCli, startCliMock } from '../helpers/processes';

/**
 * `mcp-loupe mock --report` grades real clients beyond 2026-07-28 over HTTP: a task followed over
 * stdio by `mcp-loupe call` (the mock spawned as its stdio server), and the official SDK 1.32.2, a
 * 2025-11-25 client, over Streamable HTTP. A card that grades nothing says so.
 */

interface Card {
  grades: { id: string; status: string; detail: string; evidence: number[] }[];
  warning?: string;
}
const byId = (card: Card) => Object.fromEntries(card.grades.map((g) => [g.id, g]));

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-report-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `mcp-loupe call ARGS -- node bin/mcp-loupe.mjs mock SCENARIO --stdio --store memory --report FILE`. */
const callOverStdio = (args: string[], scenario: string, report: string) =>
  runCli([...args, '--', process.execPath, CLI, 'mock', scenario, '--stdio', '--store', 'memory', '--report', report]);

describe('mock --stdio --report: a task followed by `mcp-loupe call`', () => {
  it('grades the polling of the stdio client, and says stdio carries no Mcp-Name header', async () => {
    const file = path.join(dir, 'stdio.json');
    const run = await callOverStdio(
      ['call', 'render_report', 'pages=1', '--task', '--wait', '--elicit-stub', '{"publish":true}'],
      'examples/task-script.yaml',
      file,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Published 1 pages (publish: true)');
    // The client waits for its stdio server to exit, and the mock writes the card before it does.
    const card = JSON.parse(fs.readFileSync(file, 'utf8')) as Card;
    const g = byId(card);
    expect(g['poll-cadence']).toMatchObject({ status: 'pass', evidence: expect.arrayContaining([expect.any(Number)]) });
    expect(g['stops-at-terminal']!.status).toBe('pass');
    expect(g['extension-declared']!.status).toBe('pass');
    expect(g['mcp-name']).toMatchObject({
      status: 'not-observed',
      detail: expect.stringMatching(/tasks requests came over stdio, which carries no Mcp-Name header/),
    });
    expect(g['honours-retry-after']).toMatchObject({ status: 'not-observed', detail: expect.stringContaining('over stdio') });
    expect(card.warning).toBeUndefined();
    expect(run.stderr).not.toContain('graded nothing');
  });

  it('says "the report card graded nothing" on stderr and in the JUnit file when the traffic exercised no rule', async () => {
    const file = path.join(dir, 'nothing.xml');
    const run = await callOverStdio(['call', 'echo', 'text=hi'], 'demo', file);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/mcp-loupe: --report: the report card graded nothing: \d+ requests were journaled \(\d+ over stdio\)/);
    const xml = fs.readFileSync(file, 'utf8');
    expect(xml).toContain('<property name="mcp-loupe.warning" value="the report card graded nothing:');
    expect(xml).toContain('<system-out>mcp-loupe: the report card graded nothing:');
    expect(xml).toContain('failures="0"');
  });
});

describe('mock --report: the SDK 1.32.2 (2025-11-25) client over HTTP', () => {
  it('grades its tasks/get polling against pollInterval, and the 2026-07-28 rules say a 2025-11-25 client sent them', async () => {
    const sdk = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8')) as { version: string };
    expect(sdk.version).toBe('1.32.2');
    const file = path.join(dir, 'legacy.json');
    const mock = await startCliMock(['examples/task-script.yaml', '--store', 'memory', '--report', file]);
    try {
      const client = new Client({ name: 'sdk-1.32.2', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { publish: true } }));
      await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)) as Transport);
      const statuses: string[] = [];
      let last: { type: string; result?: unknown } = { type: 'none' };
      for await (const m of client.experimental.tasks.callToolStream({ name: 'render_report', arguments: { pages: 1 } }, undefined, {
        task: { ttl: 60_000 },
      })) {
        if (m.type === 'taskCreated' || m.type === 'taskStatus') statuses.push(m.task.status);
        last = m;
      }
      expect(last, JSON.stringify(last)).toMatchObject({ type: 'result', result: { content: [{ text: 'Published 1 pages (publish: true)' }] } });
      expect(statuses.filter((s) => s === 'working').length).toBeGreaterThan(1);
      await client.close();
    } finally {
      await mock.stop();
    }
    const g = byId(JSON.parse(fs.readFileSync(file, 'utf8')) as Card);
    expect(g['poll-cadence']).toMatchObject({ status: 'pass', detail: expect.stringContaining('polls checked') });
    expect(g['stops-at-terminal']!.status).toBe('pass');
    expect(g['mcp-name']).toMatchObject({
      status: 'not-observed',
      detail: expect.stringMatching(/^\d+ tasks requests came from a 2025-11-25 client; this rule is about 2026-07-28 clients\.$/),
    });
    expect(g['extension-declared']).toMatchObject({ status: 'not-observed', detail: expect.stringContaining('2025-11-25 client') });
  });
});
