import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHeadlessSession } from '../../lib/client/headless';
import type { ClientSession } from '../../lib/client/session';
import type { JsonRpcNotification } from '../../lib/protocol';
import { freshDatabase } from '../helpers/postgres';
import { startCliMock, type Started } from '../helpers/processes';
import { CAPS, rpc } from '../helpers/rpc';
import { controlApi, httpTarget } from './http-target';

/**
 * Seed 000's walkthrough against a fleet: three `mcp-loupe mock --store postgres://…` processes
 * behind a round-robin HTTP balancer (real sockets; each request goes to the next instance, and
 * a listen stream, being one request, stays on the instance it opened on), driven by Loupe's
 * headless client as any 2026-07-28 client would drive one server. generate_report runs as a
 * task and is approved through another instance than the one its listen stream is on; the
 * stream hears every step. delete_note's accept/decline/cancel table holds although every
 * round of a confirmation lands on another instance, and charge runs once per idempotency key.
 */

/** A round-robin balancer in front of `upstreams`, logging which instance served each request. */
async function startRoundRobin(upstreams: string[]) {
  let next = 0;
  const served: { method: string; instance: number }[] = [];
  const server = http.createServer((req, res) => {
    const instance = next++ % upstreams.length;
    served.push({ method: String(req.headers['mcp-method'] ?? req.method), instance });
    const target = new URL(upstreams[instance]!);
    // Host is passed on as nginx's `proxy_set_header Host $host` would (a loopback name here).
    const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      // Unbuffered: SSE frames go out as they arrive (nginx: proxy_buffering off).
      answer.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    // The client went away (a listen closed): close the upstream request too, so the instance sees it.
    res.on('close', () => up.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/mcp`,
    served,
    /** The instance the next request goes to. */
    peek: () => next % upstreams.length,
    /** Where the last request of `method` went. */
    last: (method: string) => served.filter((s) => s.method === method).at(-1)?.instance,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Balancer = Awaited<ReturnType<typeof startRoundRobin>>;

describe('seed 000 walkthrough over three instances behind a round-robin balancer', () => {
  let dataDir: string;
  const fleet: Started[] = [];
  let lb: Balancer;
  let session: ClientSession;
  beforeAll(async () => {
    const url = await freshDatabase();
    // One data directory: the instances share the secret that signs requestState.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-fleet-walk-'));
    // The first alone: it may rebuild the CLI bundle, and it creates the schema.
    let n = 0;
    // Each writes the report card at exit (--report), which grades the fleet's traffic.
    const start = () => startCliMock(['demo', '--store', url, '--data-dir', dataDir, '--report', path.join(dataDir, `report-${n++}.json`)]);
    fleet.push(await start());
    const rest = await Promise.allSettled([start(), start()]);
    for (const r of rest) if (r.status === 'fulfilled') fleet.push(r.value);
    for (const r of rest) if (r.status === 'rejected') throw r.reason;
    lb = await startRoundRobin(fleet.map((m) => m.url));
    session = createHeadlessSession({ url: lb.url, capabilities: { elicitation: { form: {} } } });
    expect((await session.connect()).type).toBe('complete');
    expect(session.era).toBe('modern');
  });
  afterAll(async () => {
    session?.close();
    await lb?.close();
    await Promise.all(fleet.map((m) => m.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Send a ping while the next request would go to `avoid`, so the one after lands elsewhere. */
  const stepAwayFrom = async (avoid: number | undefined) => {
    while (lb.peek() === avoid) await session.request('ping');
  };

  it('generate_report: a task created on one instance, approved through another than its listen stream is on, and heard to the end on that stream', async () => {
    const created = await session.callTool('generate_report', { size: 'small' }, { task: true });
    if (created.type !== 'task') throw new Error(`expected a task, got ${JSON.stringify(created)}`);
    const taskId = created.task.taskId;
    expect(created.task.status).toBe('working');
    const creator = lb.last('tools/call');

    const heard: string[] = [];
    const statusesHeard = () => heard.filter((s, i) => s !== heard[i - 1]);
    const listen = session.listen(
      { taskIds: [taskId] },
      {
        onNotification: (n: JsonRpcNotification) => {
          const p = n.params as { taskId?: string; status?: string } | undefined;
          if (n.method === 'notifications/tasks' && p?.taskId === taskId && p.status) heard.push(p.status);
        },
      },
      { reconnect: false },
    );
    expect(await listen.acknowledged).toEqual({ taskIds: [taskId] });
    const listenOn = lb.last('subscriptions/listen');
    expect(listenOn).not.toBe(creator);

    // The approval is asked for by the task's first timed step; every instance serves it.
    await expect.poll(statusesHeard, { timeout: 20_000 }).toContain('input_required');
    for (let i = 0; i < 3; i += 1) {
      const read = await session.getTask(taskId);
      if (read.type !== 'snapshot') throw new Error(`tasks/get: ${JSON.stringify(read)}`);
      expect(read.task.status).toBe('input_required');
      expect(read.task.inputRequests?.approve_outline).toMatchObject({ method: 'elicitation/create' });
    }
    expect(new Set(lb.served.filter((s) => s.method === 'tasks/get').map((s) => s.instance)).size).toBe(3);

    // The answer goes through an instance the listen stream is not on; the stream hears what it set off.
    await stepAwayFrom(listenOn);
    const ack = await session.updateTask(taskId, { approve_outline: { action: 'accept', content: { approved: true } } });
    expect(ack).toMatchObject({ type: 'complete', result: { resultType: 'complete' } });
    expect(lb.last('tasks/update')).not.toBe(listenOn);
    await expect.poll(statusesHeard, { timeout: 20_000 }).toContain('completed');
    // Each status in order, none twice; a listen stream carries snapshots, so on a slow machine the
    // short working step after the approval may be overtaken by the completion.
    expect(['working,input_required,working,completed', 'working,input_required,completed']).toContain(statusesHeard().join());

    const done = await session.getTask(taskId);
    expect(done).toMatchObject({ type: 'snapshot', task: { taskId, status: 'completed', result: { structuredContent: { generated: true } } } });
    listen.close();
    expect((await listen.done).reason).toBe('closed');
  });

  // delete_note's table, each confirmation asked on one instance and answered on the next.
  const rows = [
    { action: 'accept', noteId: 'note-1', answer: { action: 'accept', content: { confirm: true } }, result: { deleted: true }, retryWorks: false },
    { action: 'decline', noteId: 'note-2', answer: { action: 'decline' }, result: { deleted: false, reason: 'declined' }, retryWorks: false },
    { action: 'cancel', noteId: 'note-3', answer: { action: 'cancel' }, result: { deleted: false, reason: 'cancelled' }, retryWorks: true },
  ];
  it.each(rows)('delete_note $action: result, nonce and retry hold across instances', async ({ noteId, answer, result, retryWorks }) => {
    const ask = await session.callTool('delete_note', { noteId });
    if (ask.type !== 'input_required') throw new Error(`expected input_required, got ${JSON.stringify(ask)}`);
    const asked = lb.last('tools/call');
    const requestState = ask.requestState;
    expect(Object.keys(ask.inputRequests)).toEqual(['confirm_delete']);

    const answered = await session.callTool('delete_note', { noteId }, { requestState, inputResponses: { confirm_delete: answer } });
    expect(lb.last('tools/call')).not.toBe(asked);
    expect(answered).toMatchObject({ type: 'complete', result: { structuredContent: { noteId, ...result } } });

    // The same confirmation answered again, on yet another instance: the nonce is the fleet's.
    const again = await session.callTool('delete_note', { noteId }, { requestState, inputResponses: { confirm_delete: rows[0]!.answer } });
    if (retryWorks) expect(again).toMatchObject({ type: 'complete', result: { structuredContent: { deleted: true, noteId } } });
    else expect(again).toMatchObject({ type: 'error', error: { code: -32602, message: expect.stringContaining('replay refused') } });
    expect(new Set(lb.served.slice(-3).map((s) => s.instance)).size).toBe(3);
  });

  it('charge runs once per idempotency key, whichever instance each retry lands on', async () => {
    const args = { account: 'acct_fleet', amountCents: 1250, idempotencyKey: 'walkthrough-1' };
    const replies = [];
    for (let i = 0; i < 3; i += 1) replies.push(await session.callTool('charge', args));
    expect(new Set(lb.served.slice(-3).map((s) => s.instance)).size).toBe(3);
    const charged = replies.map((r) => (r.type === 'complete' ? (r.result.structuredContent as { receipt: { receiptId: string }; replayed: boolean }) : r));
    expect(charged.map((c) => ('replayed' in c ? c.replayed : c))).toEqual([false, true, true]);
    expect(new Set(charged.map((c) => ('receipt' in c ? c.receipt.receiptId : undefined))).size).toBe(1);
  });

  /** A journal entry as the control API publishes it. */
  type Entry = { seq: number; at: number; method?: string; instance?: string; requestBody: { params?: { name?: string } } };
  const journalOf = async (m: Started, since = 0) =>
    (await controlApi(m.url, m.token!, `/api/scenarios/demo/journal?since=${since}`, 'GET')).json.entries as Entry[];
  const instanceIds = () => fleet.map((m) => /fleet instance: (\S+)/.exec(m.output())?.[1]);

  it("any instance's journal lists the fleet's exchanges in the order they came, each with the instance that served it", async () => {
    const ids = instanceIds();
    expect(new Set(ids).size).toBe(3);
    // The balancer's log, as instance names; every exchange has ended, so every one is in the shared journal.
    const served = lb.served.map((s) => ids[s.instance]);
    const entries = await journalOf(fleet[2]!);
    for (const [i, id] of ids.entries()) expect(entries.filter((e) => e.instance === id)).toHaveLength(served.filter((s) => s === ids[i]).length);
    const ats = entries.map((e) => e.at);
    expect(ats).toEqual([...ats].sort((a, b) => a - b));
    // The three charge calls, one after another: each on the instance the balancer sent it to.
    const toolCalls = lb.served.filter((s) => s.method === 'tools/call').slice(-3);
    const charges = entries.filter((e) => e.method === 'tools/call' && e.requestBody.params?.name === 'charge').sort((a, b) => a.seq - b.seq);
    expect(charges.map((e) => e.instance)).toEqual(toolCalls.map((s) => ids[s.instance]));
    // ?since= gives what came after a seq: the fleet's seq, the same on every instance.
    const newest = Math.max(...entries.map((e) => e.seq));
    const tail = await journalOf(fleet[0]!, newest - 2);
    expect(tail.map((e) => e.seq).sort()).toEqual(
      entries
        .filter((e) => e.seq > newest - 2)
        .map((e) => e.seq)
        .sort(),
    );
    expect(tail.length).toBeGreaterThanOrEqual(1);
  });

  it("the control room's live feed on one instance shows what another instance serves", async () => {
    const ids = instanceIds();
    const res = await fetch(new URL('/api/scenarios/demo/events', fleet[0]!.url), { headers: { Authorization: `Bearer ${fleet[0]!.token}` } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const events = () =>
      text
        .split('\n\n')
        .slice(0, -1)
        .map((block) => ({ type: /^event: (.+)$/m.exec(block)?.[1], data: /^data: (.+)$/m.exec(block)?.[1] }))
        .filter((e): e is { type: string; data: string } => !!e.type && !!e.data)
        .map((e) => ({ type: e.type, data: JSON.parse(e.data) as { entries?: Entry[] } & Entry }));
    const until = async (found: () => boolean) => {
      while (!found()) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`the feed ended:\n${text}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await until(() => events().some((e) => e.type === 'scenario:snapshot'));
    const snapshot = events().find((e) => e.type === 'scenario:snapshot')!.data.entries!;
    expect(new Set(snapshot.map((e) => e.instance))).toEqual(new Set(ids));
    // A request served by B, straight to it: A's feed shows it, named as B's.
    const b = httpTarget(new URL('/mcp', fleet[1]!.url).toString());
    expect((await rpc(b, 'tools/list', {}, b.opts({ caps: CAPS.none }))).status).toBe(200);
    const fromB = () => events().find((e) => e.type === 'journal:end' && e.data.method === 'tools/list' && e.data.instance === ids[1]);
    await until(() => fromB() !== undefined);
    expect(fromB()!.data.seq).toBeGreaterThan(Math.max(...snapshot.map((e) => e.seq)));
    await reader.cancel();
  });

  it('a 2025-11-25 client spread round-robin is told its session lives on another instance; sent to one instance, it works', async () => {
    const spread = new V1Client({ name: 'legacy-round-robin', version: '1.0.0' });
    const failure = await (async () => {
      await spread.connect(new V1Transport(new URL(lb.url)));
      for (let i = 0; i < 3; i += 1) await spread.listTools();
    })().then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    // The SDK's StreamableHTTPError: the HTTP status as its code, the server's JSON-RPC error in its message.
    expect((failure as Error & { code?: number }).code).toBe(404);
    expect(failure?.message).toMatch(/Session not found on this instance: a 2025-11-25 session lives on the fleet instance that answered initialize/);
    await spread.close();
    // Sticky routing: every request of the client to the instance that answered its initialize.
    const sticky = new V1Client({ name: 'legacy-sticky', version: '1.0.0' });
    await sticky.connect(new V1Transport(new URL(fleet[1]!.url)));
    for (let i = 0; i < 3; i += 1) expect((await sticky.listTools()).tools.map((t) => t.name)).toContain('charge');
    await sticky.close();
  });

  it("--report at exit grades the fleet's traffic: its evidence is the fleet's journal", async () => {
    const ids = instanceIds();
    const entries = await journalOf(fleet[0]!);
    await fleet[2]!.stop();
    const card = JSON.parse(fs.readFileSync(path.join(dataDir, 'report-2.json'), 'utf8')) as { grades: { id: string; status: string; evidence: number[] }[] };
    const keys = card.grades.find((g) => g.id === 'idempotency-keys');
    expect(keys?.status).toBe('pass');
    const bySeq = new Map(entries.map((e) => [e.seq, e]));
    const evidence = (keys?.evidence ?? []).map((seq) => bySeq.get(seq));
    // The three charge calls (and the demo's other keyed calls), served by all three instances.
    expect(evidence.filter((e) => e?.requestBody.params?.name === 'charge')).toHaveLength(3);
    expect(new Set(evidence.map((e) => e?.instance))).toEqual(new Set(ids));
  });
});
