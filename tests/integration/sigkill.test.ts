import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPS, callTool, rpc } from '../helpers/rpc';
import { startCliMock, type Started } from '../helpers/processes';
import { controlApi, httpTarget } from './http-target';

/**
 * Durability: SIGKILL the mock with 100 tasks in flight (some waiting for input), restart it
 * on the same data directory, and read every task back intact.
 */
describe('100 tasks survive SIGKILL', () => {
  let dataDir: string;
  let mock: Started | undefined;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sigkill-'));
  });
  afterAll(async () => {
    await mock?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads all 100 back after a restart', async () => {
    mock = await startCliMock(['demo', '--data-dir', dataDir, '--manual']);
    let target = httpTarget(mock.url);
    const created = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        callTool(target, 'generate_report', { size: ['small', 'medium', 'large'][i % 3] }, target.opts({ caps: CAPS.formAndTasks })),
      ),
    );
    const tasks = created.map((c) => c.body.result as { taskId: string; createdAt: string; status: string });
    expect(new Set(tasks.map((t) => t.taskId)).size).toBe(100);
    // Move every fourth task on to input_required so the crash catches tasks mid-lifecycle.
    for (const t of tasks.filter((_, i) => i % 4 === 0)) {
      const r = await controlApi(mock.url, mock.token!, `/api/scenarios/demo/tasks/${t.taskId}/advance`);
      expect(r.status).toBe(200);
    }
    const before = await Promise.all(tasks.map((t) => rpc(target, 'tasks/get', { taskId: t.taskId }, target.opts({ caps: CAPS.formAndTasks }))));

    await mock.stop('SIGKILL');
    mock = await startCliMock(['demo', '--data-dir', dataDir, '--manual']);
    target = httpTarget(mock.url);
    const after = await Promise.all(tasks.map((t) => rpc(target, 'tasks/get', { taskId: t.taskId }, target.opts({ caps: CAPS.formAndTasks }))));

    for (const [i, a] of after.entries()) expect(a.body.result).toEqual(before[i].body.result);
    const waiting = after.filter((a) => a.body.result.status === 'input_required');
    expect(waiting).toHaveLength(25);
    for (const w of waiting) expect(Object.keys(w.body.result.inputRequests)).toEqual(['approve_outline']);
    expect(after.filter((a) => a.body.result.status === 'working')).toHaveLength(75);
  });
});
