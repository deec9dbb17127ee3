import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPS, buildRequest, callTool, parseSse, rpc } from '../helpers/rpc';
import { startCliMock, type Started } from '../helpers/processes';
import { freshDatabase } from '../helpers/postgres';
import { httpTarget } from './http-target';

/**
 * Three `mcp-loupe mock --store postgres://…` processes on one database, as behind a
 * round-robin load balancer: a task created on one is served by all, a listen stream on another
 * hears it, it runs on when its creator is SIGKILLed, and racing duplicate charges spread over
 * the three execute once per idempotency key.
 */

describe('a fleet of three mock instances on PostgreSQL', () => {
  let dataDir: string;
  let db: pg.Client;
  const fleet: Started[] = [];
  beforeAll(async () => {
    const url = await freshDatabase();
    db = new pg.Client({ connectionString: url });
    await db.connect();
    // One data directory: the instances share the secret that signs requestState.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-fleet-'));
    // One after another: the first may rebuild the CLI bundle (bin/mcp-loupe.mjs) and creates the schema.
    for (let i = 0; i < 3; i += 1) fleet.push(await startCliMock(['demo', '--store', url, '--data-dir', dataDir]));
  });
  afterAll(async () => {
    await db?.end();
    await Promise.all(fleet.map((m) => m.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (m: Started, method: string, params: Record<string, unknown>) => {
    const target = httpTarget(m.url);
    return rpc(target, method, params, target.opts({ caps: CAPS.formAndTasks }));
  };

  it('serves one task from every instance; a listen on B hears it move; SIGKILL of A, which holds its timer, does not stop it', async () => {
    const [a, b] = [fleet[0]!, fleet[1]!];
    const target = httpTarget(a.url);
    const created = await callTool(target, 'generate_report', { size: 'small' }, target.opts({ caps: CAPS.formAndTasks }));
    expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId: string = created.body.result.taskId;

    // A listen stream on B, read as it arrives.
    const { request } = buildRequest('subscriptions/listen', { notifications: { taskIds: [taskId] } }, { caps: CAPS.formAndTasks, url: b.url });
    const listen = await fetch(request);
    expect(listen.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = listen.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const statuses = () =>
      (parseSse(text) as { method?: string; params?: { taskId?: string; status?: string } }[])
        .filter((m) => m.method === 'notifications/tasks' && m.params?.taskId === taskId)
        .map((m) => m.params!.status);
    const readUntil = async (want: (s: (string | undefined)[]) => boolean) => {
      while (!want(statuses())) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`listen ended early:\n${text}`);
        text += decoder.decode(value, { stream: true });
      }
    };

    await readUntil((s) => s.length > 0);
    expect(statuses()[0]).toBe('working');
    // A created the task, so A holds its lease: A alone runs its timed steps.
    const owner = async () =>
      (await db.query<{ owner: string | null }>('SELECT lease_owner AS owner FROM loupe_tasks WHERE task_id = $1', [taskId])).rows[0]?.owner;
    await expect.poll(owner).toBeTruthy();
    const creator = await owner();

    // The creator dies holding the timer of the first step (1.5 s). Its lease lapses, another
    // instance adopts the task, and the step it owed still happens: B hears input_required.
    await a.stop('SIGKILL');
    await readUntil((s) => s.includes('input_required'));
    const live = fleet.filter((m) => m !== a);
    for (const m of live) expect((await call(m, 'tasks/get', { taskId })).body.result).toMatchObject({ taskId, status: 'input_required' });

    // The approval lands on B; the timed writing steps run to the end on the adopter.
    const ack = await call(b, 'tasks/update', { taskId, inputResponses: { approve_outline: { action: 'accept', content: { approved: true } } } });
    expect(ack.body.result).toEqual({ resultType: 'complete' });
    await readUntil((s) => s.includes('completed'));
    await reader.cancel();
    const done = await call(fleet[2]!, 'tasks/get', { taskId });
    expect(done.body.result).toMatchObject({ taskId, status: 'completed', result: { structuredContent: { generated: true } } });
    // Nothing lost or repeated: every status in order, each once, from working to completed.
    const seen = statuses().filter((s, i, all) => s !== all[i - 1]);
    expect(seen.slice(0, 2)).toEqual(['working', 'input_required']);
    expect(seen.at(-1)).toBe('completed');
    expect(seen.filter((s) => s === 'completed')).toHaveLength(1);
    const adopter = await owner();
    expect(adopter).toBeTruthy();
    expect(adopter).not.toBe(creator);
  });

  it('executes 1,000 racing duplicate charges over 100 keys, spread over the live instances, exactly 100 times', async () => {
    const live = fleet.filter((m) => m.child.exitCode === null && m.child.signalCode === null);
    // A connection the server closed while idle (keep-alive) can fail a send: the same charge with
    // the same key is retried, which is what idempotency keys are for, and must not charge twice.
    const charge = async (i: number) => {
      for (let attempt = 0; ; attempt += 1) {
        const m = live[(i + attempt) % live.length]!;
        const target = httpTarget(m.url);
        try {
          return await callTool(
            target,
            'charge',
            { account: 'acct_1', amountCents: 500, idempotencyKey: `fleet-${i % 100}` },
            target.opts({ caps: CAPS.none }),
          );
        } catch (error) {
          if (attempt >= 2) throw error;
        }
      }
    };
    const replies = await Promise.all(Array.from({ length: 1000 }, (_, i) => charge(i)));
    const receipts = replies.map((r) => r.body.result?.structuredContent as { receipt: { receiptId: string }; replayed: boolean });
    expect(receipts.every((r) => r !== undefined)).toBe(true);
    expect(receipts.filter((r) => !r.replayed)).toHaveLength(100);
    expect(new Set(receipts.map((r) => r.receipt.receiptId)).size).toBe(100);
  });
});
