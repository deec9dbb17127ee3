import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinScenarioYaml } from '../../../lib/server/scenario-files';
import { createMockHost, type HostEvent, type MockHost } from '../../../lib/server/mock-host';
import { CAPS, callTool, rpc } from '../../helpers/rpc';

/** The mock host resolves built-ins then saved files, and a save replaces the running engine. */

const ECHO = (id: string, text: string) => `id: ${id}
server: { name: ${id}, version: "1" }
tools:
  - name: echo
    result: { content: [{ type: text, text: ${text} }] }
`;

describe('mock host', () => {
  let dataDir: string;
  let host: MockHost;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'loupe-host-'));
    host = createMockHost({ dataDir });
  });
  afterEach(() => {
    host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves built-ins, then saved files, and nothing for unknown or malformed ids', async () => {
    expect(host.engine('demo')?.scenario.id).toBe('demo');
    expect(host.engine('notes')).toBeUndefined();
    expect(host.saveScenario('notes', ECHO('notes', 'first'))).toMatchObject({ ok: true });
    const reply = await callTool(host.engine('notes')!, 'echo');
    expect(reply.body.result.content[0].text).toBe('first');
    expect(host.engine('../notes')).toBeUndefined();
    expect(host.engine('scenarios/notes')).toBeUndefined();
  });

  it('a save replaces the running engine; the new file is served at once', async () => {
    host.saveScenario('notes', ECHO('notes', 'first'));
    const before = host.engine('notes')!;
    await callTool(before, 'echo');
    const events: HostEvent[] = [];
    host.on((e) => events.push(e));
    expect(host.saveScenario('notes', ECHO('notes', 'second'))).toMatchObject({ ok: true });
    expect(events).toContainEqual({ type: 'scenario:replaced', data: { id: 'notes' }, scenarioId: 'notes' });
    const after = host.engine('notes')!;
    expect(after).not.toBe(before);
    expect((await callTool(after, 'echo')).body.result.content[0].text).toBe('second');
    // A refused save leaves the running engine alone.
    expect(host.saveScenario('notes', 'id: notes\nserver: 1\n')).toMatchObject({ ok: false, reason: 'invalid' });
    expect(host.engine('notes')).toBe(after);
  });

  it('keeps the tasks of a replaced engine in the store', async () => {
    const copy = builtinScenarioYaml('demo')!.replace(/^id: demo$/m, 'id: reports');
    host.saveScenario('reports', copy);
    const started = await callTool(host.engine('reports')!, 'generate_report', { size: 'small' }, { caps: CAPS.formAndTasks });
    const taskId = started.body.result.taskId as string;
    host.saveScenario('reports', copy.replace('Drafting outline', 'Outlining'));
    const engine = host.engine('reports')!;
    expect((await engine.tasks.list()).map((t) => t.taskId)).toEqual([taskId]);
    const polled = await rpc(engine, 'tasks/get', { taskId }, { caps: CAPS.formAndTasks });
    expect(polled.body.result.status).toBe('working');
  });

  it('tags engine events with their scenario and stops relaying a deleted scenario', async () => {
    host.saveScenario('notes', ECHO('notes', 'x'));
    const events: HostEvent[] = [];
    host.on((e) => events.push(e));
    await callTool(host.engine('notes')!, 'echo');
    await callTool(host.engine('demo')!, 'echo', { text: 'a' });
    expect(events.filter((e) => e.type === 'journal:entry').map((e) => e.scenarioId)).toEqual(['notes', 'demo']);
    expect(host.deleteScenario('notes')).toEqual({ ok: true });
    expect(events.at(-1)).toEqual({ type: 'scenario:deleted', data: { id: 'notes' }, scenarioId: 'notes' });
    expect(host.engine('notes')).toBeUndefined();
    expect(host.deleteScenario('demo')).toMatchObject({ ok: false, reason: 'builtin' });
  });
});
