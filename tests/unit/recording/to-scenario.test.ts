import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientSession } from '../../../lib/client/session';
import { createMemoryTransport } from '../../../lib/client/memory-transport';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { parseScenario } from '../../../lib/scenario/loader';
import { importHar } from '../../../lib/recording/har-import';
import { recordingToScenarioYaml } from '../../../lib/recording/to-scenario';
import { ROOT } from '../../helpers/processes';
import { recordSession, type RecordedSession } from './session';

/** Recording → scenario: the YAML validates and a mock built from it serves what was recorded. */

let session: RecordedSession;
const engines: MockEngine[] = [];
beforeAll(async () => {
  session = await recordSession();
});
afterAll(() => {
  session?.engine.close();
  for (const e of engines) e.close();
});

function convert(yamlText: string) {
  const parsed = parseScenario(yamlText, 'converted.yaml');
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => `${e.line}:${e.column} ${e.path} ${e.message}`).join('\n'));
  return parsed.scenario;
}

describe('recording to scenario', () => {
  it('produces YAML that parseScenario validates, with tools, resources and task lifecycles', () => {
    const text = recordingToScenarioYaml(session.recording);
    expect(text).toMatch(/^# Loupe scenario converted from a recording/);
    // The file is read on disk too: it names the schema where the package installs it, beside Loupe's own path.
    expect(text.split('\n')[1]).toMatch(/node_modules\/mcp-loupe\/public\/scenario\.schema\.json/);
    const s = convert(text);
    expect(s.id).toBe('rec-test-recorded');
    expect(s.server).toMatchObject({ name: 'rec-test', version: '1.2.3', title: 'Recording test server' });
    expect(s.tools.map((t) => t.name)).toEqual(['broken', 'confirm', 'echo', 'report', 'slowly']);
    const tool = (n: string) => s.tools.find((t) => t.name === n)!;
    expect(tool('echo').result).toMatchObject({ content: [{ type: 'text', text: 'echo: hello' }] });
    expect(tool('broken').error).toEqual({ code: -32050, message: 'Broken on purpose' });
    expect(tool('confirm').mrtr?.rounds[0].inputRequests.ok).toMatchObject({ method: 'elicitation/create', params: { message: 'Sure?' } });
    const steps = tool('report').task!.steps;
    expect(steps.map((st) => st.status ?? (st.result ? 'result' : '?'))).toEqual(['working', 'input_required', 'working', 'result']);
    expect(steps[0]).toMatchObject({ statusMessage: 'Drafting' });
    // Delays come from the server's lastUpdatedAt stamps: the script said 60 ms.
    expect(steps[0].delayMs).toBeGreaterThanOrEqual(55);
    expect(steps[0].delayMs).toBeLessThan(400);
    expect(steps[1].inputRequests?.approve).toMatchObject({ method: 'elicitation/create', params: { message: 'Approve the outline?' } });
    expect(steps[3]).toMatchObject({ statusMessage: 'Done', result: { content: [{ text: 'Report done' }], structuredContent: { sections: 3 } } });
    expect(tool('report').task).toMatchObject({ pollIntervalMs: 20, ttlMs: expect.any(Number) });
    expect(s.resources).toContainEqual(expect.objectContaining({ uri: 'ui://test/view.html', text: '<!doctype html><p>recorded app</p>' }));
  });

  it('serves the recorded tool results through createMockEngine', async () => {
    const engine = createMockEngine({ scenario: convert(recordingToScenarioYaml(session.recording)) });
    engines.push(engine);
    const client = createClientSession({ transport: createMemoryTransport(engine), era: 'modern', capabilities: { elicitation: { form: {} } } });
    expect(await client.callTool('echo', { text: 'hello' })).toMatchObject({ type: 'complete', result: { content: [{ type: 'text', text: 'echo: hello' }] } });
    expect(await client.callTool('broken', {})).toMatchObject({ type: 'error', error: { code: -32050 } });
    const confirmed = await client.callWithInput('confirm', {}, async (reqs) =>
      Object.fromEntries(Object.keys(reqs).map((k) => [k, { action: 'accept', content: { yes: true } }])),
    );
    expect(confirmed).toMatchObject({ type: 'complete', rounds: 2, result: { content: [{ text: 'confirmed' }] } });
    expect(await client.request('resources/read', { uri: 'ui://test/view.html' })).toMatchObject({
      type: 'complete',
      result: { contents: [{ text: '<!doctype html><p>recorded app</p>' }] },
    });
    const created = await client.callTool('report', {}, { task: true });
    if (created.type !== 'task') throw new Error(`expected a task, got ${created.type}`);
    const seen: string[] = [];
    const end = await client.followTask(created.task, {
      answer: async () => ({ approve: { action: 'accept', content: { approved: true } } }),
      onUpdate: (t) => seen.push(t.status),
      waitMs: 10_000,
    }).done;
    expect(end).toMatchObject({
      kind: 'terminal',
      task: { status: 'completed', result: { content: [{ text: 'Report done' }], structuredContent: { sections: 3 } } },
    });
    expect(seen).toContain('input_required');
  });

  it('fits a task result the scenario format refuses (a key the server added) and notes it', () => {
    const recording = structuredClone(session.recording);
    // Wherever the recording carries the report's final result, the server added keys of its own.
    const tag = (v: unknown): void => {
      if (!v || typeof v !== 'object') return;
      if (Array.isArray(v)) {
        for (const item of v) tag(item);
        return;
      }
      const o = v as Record<string, unknown>;
      if (Array.isArray(o.content) && (o.content as { text?: string }[])[0]?.text === 'Report done') {
        o.vendorTrace = 'trace-1';
        (o.content as Record<string, unknown>[])[0].vendorScore = 0.5;
      }
      for (const item of Object.values(o)) tag(item);
    };
    for (const f of recording.frames) tag(f.body);
    const notes: string[] = [];
    const s = convert(recordingToScenarioYaml(recording, { notes }));
    const steps = s.tools.find((t) => t.name === 'report')!.task!.steps;
    expect(steps.at(-1)!.result).toEqual({ content: [{ type: 'text', text: 'Report done' }], structuredContent: { sections: 3 } });
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tool report task step 4 result: dropped result key vendorTrace/),
        expect.stringMatching(/^tool report task step 4 result content\[0\]: dropped key vendorScore of a text block/),
      ]),
    );
  });

  it('converts a browser HAR too: the demo task lifecycle becomes a script', () => {
    const har = importHar(JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/har/chrome-devtools-mcp.har'), 'utf8')));
    if (!har.ok) throw new Error(har.error);
    const s = convert(recordingToScenarioYaml(har.recording, { id: 'from-chrome' }));
    expect(s.id).toBe('from-chrome');
    const report = s.tools.find((t) => t.name === 'generate_report')!;
    const steps = report.task!.steps;
    expect(steps[0]).toMatchObject({ status: 'working', statusMessage: 'Drafting outline for a small report' });
    expect(steps.some((st) => st.inputRequests?.approve_outline)).toBe(true);
    expect(steps.map((st) => st.statusMessage)).toEqual(expect.arrayContaining(['Writing section 1 of 3', 'Writing section 2 of 3', 'Writing section 3 of 3']));
    expect(steps[steps.length - 1].result).toMatchObject({ structuredContent: { generated: true, sections: 3 } });
    expect(s.tools.find((t) => t.name === 'echo')!.result).toMatchObject({ content: [{ text: 'hello from the browser' }] });
  });
});
