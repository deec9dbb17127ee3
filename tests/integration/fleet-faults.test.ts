import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CAPS, buildRequest, callTool, rpc } from '../helpers/rpc';
import { startCliMock, type Started } from '../helpers/processes';
import { freshDatabase } from '../helpers/postgres';
import { controlApi, httpTarget } from './http-target';

/**
 * Fleet faults on three `mcp-loupe mock --store postgres://…` instances: fault counters count
 * the fleet's requests, a report card read on one instance grades every instance's traffic, and
 * the official SDK v2 client, its requests spread round-robin over the instances, meets
 * `instance-down` (one instance cuts every connection for a while) and `instance-skew` (one
 * instance lags like a read replica: a status seen may go back, a new task is not found), retries, and ends with the right answers.
 */

const TASKS = 'io.modelcontextprotocol/tasks';

const scenario = {
  id: 'fleet-faults',
  name: 'Fleet faults',
  server: { name: 'fleet-faults', version: '1.0.0' },
  settings: { pollIntervalMs: 100 },
  tools: [
    {
      name: 'echo',
      description: 'Echoes',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      result: { content: [{ type: 'text', text: '{{args.text}}' }] },
    },
    {
      name: 'pay',
      description: 'A side effect',
      inputSchema: { type: 'object', properties: { amount: { type: 'integer' }, idempotencyKey: { type: 'string' } } },
      result: { content: [{ type: 'text', text: 'paid' }] },
    },
    {
      name: 'slow_job',
      description: 'Runs as a task',
      inputSchema: { type: 'object' },
      task: {
        mode: 'required',
        steps: [
          { statusMessage: 'Working', delayMs: 1500 },
          { statusMessage: 'Done', result: { content: [{ type: 'text', text: 'job done' }] } },
        ],
      },
    },
  ],
  faults: [
    { name: 'second-list', match: { method: 'tools/list', nth: 2 }, action: { kind: 'http-status', status: 503, retryAfter: 0 } },
    { name: 'down', match: { method: 'tools/call', tool: 'echo', nth: 2 }, action: { kind: 'instance-down', ms: 8000 } },
    { name: 'skew', match: { method: 'tasks/get', nth: 4 }, action: { kind: 'instance-skew', ms: 4000 } },
  ],
};

/** Whether an error is the connection failing (no HTTP answer at all). */
function isNetworkError(error: unknown): boolean {
  const text = `${(error as Error)?.message ?? ''} ${String((error as { cause?: unknown })?.cause ?? '')}`;
  return /fetch failed|ECONNRESET|socket hang up|other side closed|terminated|network/i.test(text);
}

describe('fleet faults over PostgreSQL', () => {
  let dataDir: string;
  const fleet: Started[] = [];
  const endpoint = (m: Started) => new URL(`/mcp/${scenario.id}`, m.url).toString();
  beforeAll(async () => {
    const url = await freshDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-fleet-faults-'));
    const file = path.join(dataDir, 'fleet-faults.json');
    fs.writeFileSync(file, JSON.stringify(scenario));
    for (let i = 0; i < 3; i += 1) fleet.push(await startCliMock([file, '--store', url, '--data-dir', dataDir]));
  });
  afterAll(async () => {
    await Promise.all(fleet.map((m) => m.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("counts nth over the fleet, and grades every instance's traffic on the report card of any", async () => {
    const list = async (m: Started) => {
      const { request } = buildRequest('tools/list', {}, httpTarget(endpoint(m)).opts({ caps: CAPS.none }));
      const res = await fetch(request);
      await res.body?.cancel();
      return res.status;
    };
    // The second tools/list of the fleet fails, on whichever instance it lands: here B.
    expect(await list(fleet[0]!)).toBe(200);
    expect(await list(fleet[1]!)).toBe(503);
    expect(await list(fleet[2]!)).toBe(200);
    expect(await list(fleet[1]!)).toBe(200);

    // The same payment without an idempotency key, once on A and once on B: only the fleet saw it twice.
    for (const m of [fleet[0]!, fleet[1]!]) {
      const target = httpTarget(endpoint(m));
      expect((await rpc(target, 'tools/call', { name: 'pay', arguments: { amount: 5 } }, target.opts({ caps: CAPS.none }))).status).toBe(200);
    }
    const grade = async (m: Started) => {
      const card = await controlApi(m.url, m.token!, `/api/scenarios/${scenario.id}/report-card`, 'GET');
      return (card.json as { grades: { id: string; status: string; evidence: number[] }[] }).grades.find((g) => g.id === 'idempotency-keys');
    };
    // C served neither, yet its report card grades both (journal entries are stored as exchanges end).
    await expect.poll(async () => (await grade(fleet[2]!))?.status).toBe('fail');
    expect((await grade(fleet[2]!))?.evidence).toHaveLength(2);
    expect(await grade(fleet[0]!)).toMatchObject({ status: 'fail' });
  });

  it('the SDK v2 client, spread round-robin, retries past instance-down and instance-skew and ends right', async () => {
    let turn = 0;
    const seen: { instance: number; outcome: string }[] = [];
    // A round-robin load balancer in front of the three instances.
    const balanced = async (input: string | URL, init?: RequestInit) => {
      const instance = turn++ % fleet.length;
      const target = new URL(String(input));
      target.port = String(fleet[instance]!.port);
      try {
        const res = await fetch(target, init);
        seen.push({ instance, outcome: String(res.status) });
        return res;
      } catch (error) {
        seen.push({ instance, outcome: 'reset' });
        throw error;
      }
    };
    const client = new Client(
      { name: 'fleet-faults', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { extensions: { [TASKS]: {} } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint(fleet[0]!)), { fetch: balanced }));

    // The client's retry: a request whose connection failed is sent again (the balancer picks the next instance).
    const retried = async <T>(work: () => Promise<T>): Promise<{ value: T; failures: number }> => {
      for (let failures = 0; ; failures += 1) {
        try {
          return { value: await work(), failures };
        } catch (error) {
          if (!isNetworkError(error) || failures >= 5) throw error;
        }
      }
    };

    // instance-down: the fleet's second echo takes its instance down; that call and every request to it fail.
    expect((await retried(() => client.callTool({ name: 'echo', arguments: { text: 'one' } }))).value.content).toEqual([{ type: 'text', text: 'one' }]);
    const second = await retried(() => client.callTool({ name: 'echo', arguments: { text: 'two' } }));
    expect(second.failures).toBeGreaterThanOrEqual(1);
    expect(second.value.content).toEqual([{ type: 'text', text: 'two' }]);
    const down = seen.find((s) => s.outcome === 'reset')!.instance;
    for (let i = 0; i < 3; i += 1) {
      const r = await retried(() => client.callTool({ name: 'echo', arguments: { text: `more ${i}` } }));
      expect(r.value.content).toEqual([{ type: 'text', text: `more ${i}` }]);
    }
    expect(seen.filter((s) => s.outcome === 'reset').every((s) => s.instance === down)).toBe(true);
    expect(seen.filter((s) => s.outcome === 'reset').length).toBeGreaterThanOrEqual(2);
    const direct = httpTarget(endpoint(fleet[down]!));
    await expect(rpc(direct, 'tools/list', {}, direct.opts({ caps: CAPS.none }))).rejects.toThrow();

    // instance-skew: the fleet's fourth tasks/get makes its instance lag. It had served the task as
    // working (the first three polls went round the live instances), so after the task completes it
    // still says working: the status a client sees may go back. A task created meanwhile is not found there.
    const TaskSchema = z.looseObject({ taskId: z.string(), status: z.string() });
    // The tasks are created by plain requests on the instance that is up after the down one (the SDK's
    // codec has no tasks); the SDK client then polls them through the balancer.
    const creator = httpTarget(endpoint(fleet[(down + 1) % fleet.length]!));
    const create = async () => (await callTool(creator, 'slow_job', {}, creator.opts({ caps: CAPS.tasks }))).body.result as z.infer<typeof TaskSchema>;
    /** One poll through the balancer: the status, or the -32602 message of a lagging instance. */
    const poll = async (taskId: string) => {
      try {
        return (await retried(() => client.request({ method: 'tasks/get', params: { taskId } }, TaskSchema))).value.status;
      } catch (error) {
        if ((error as { code?: number }).code !== -32602) throw error;
        return (error as Error).message;
      }
    };
    const created = await create();
    expect(created.status).toBe('working');
    const seenStatuses: string[] = [];
    let later: string | undefined;
    const laterAnswers: string[] = [];
    // Until every instance agrees the task completed, three polls in a row.
    for (let polls = 0; polls < 300 && seenStatuses.slice(-3).join() !== 'completed,completed,completed'; polls += 1) {
      seenStatuses.push(await poll(created.taskId));
      // Once the lag shows (working after completed), a task created now is unknown to the lagging instance.
      if (!later && seenStatuses.lastIndexOf('working') > seenStatuses.indexOf('completed') && seenStatuses.includes('completed')) {
        later = (await create()).taskId;
        // The balancer may skip a down instance, so poll until both have answered (the lagging one and another).
        for (let i = 0; i < 8 && !(laterAnswers.includes('working') && laterAnswers.some((a) => /Task not found/.test(a))); i += 1)
          laterAnswers.push(await poll(later));
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const firstDone = seenStatuses.indexOf('completed');
    expect(firstDone).toBeGreaterThan(0);
    expect(seenStatuses.slice(firstDone)).toContain('working');
    expect(seenStatuses.slice(-3)).toEqual(['completed', 'completed', 'completed']);
    expect(laterAnswers.some((a) => /Failed to retrieve task: Task not found/.test(a))).toBe(true);
    expect(laterAnswers).toContain('working');
    await client.close();
  });
});
