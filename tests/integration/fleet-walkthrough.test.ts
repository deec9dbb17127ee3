import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHeadlessSession } from '../../lib/client/headless';
import type { ClientSession } from '../../lib/client/session';
import type { JsonRpcNotification } from '../../lib/protocol';
import { freshDatabase } from '../helpers/postgres';
import { startCliMock, type Started } from '../helpers/processes';

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
    const start = () => startCliMock(['demo', '--store', url, '--data-dir', dataDir]);
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
});
