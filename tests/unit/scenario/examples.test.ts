import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { loadScenarioFile } from '../../../lib/scenario/files';
import { formatIssues } from '../../../lib/scenario/loader';
import type { Scenario } from '../../../lib/scenario/schema';
import { createFakeClock, type FakeClock } from '../../helpers/fake-clock';
import { CAPS, callTool, rpc } from '../../helpers/rpc';

/**
 * examples/ ships in the package: every scenario there loads with the loader `mcp-loupe validate`
 * uses, starts with the editor's schema line, and does what its comments promise when served by
 * the engine (one real exchange per feature).
 */

const EXAMPLES = join(dirname(fileURLToPath(import.meta.url)), '../../../examples');
const SCHEMA_LINE = '# yaml-language-server: $schema=../public/scenario.schema.json';
const UI_CAPS = { extensions: { 'io.modelcontextprotocol/ui': {} } };

const scenarioFiles = readdirSync(EXAMPLES).filter((f) => /\.(ya?ml|json)$/.test(f));

function load(file: string): Scenario {
  const parsed = loadScenarioFile(join(EXAMPLES, file));
  if (!parsed.ok) throw new Error(formatIssues(parsed.errors));
  return parsed.scenario;
}

const engines: MockEngine[] = [];
afterEach(() => {
  for (const engine of engines.splice(0)) engine.close();
});
function serve(file: string, clock?: FakeClock): MockEngine {
  const engine = createMockEngine({ scenario: load(file), ...(clock ? { clock } : {}) });
  engines.push(engine);
  return engine;
}

describe('examples/', () => {
  it('holds a scenario per feature of the format, and only files those scenarios use', () => {
    expect(scenarioFiles.sort()).toEqual(['elicitation.yaml', 'faults.yaml', 'mcp-app.yaml', 'mrtr-rounds.yaml', 'resources-prompts.yaml', 'task-script.yaml']);
    const used = scenarioFiles.flatMap((f) => load(f).resources.flatMap((r) => (r.file ? [r.file] : [])));
    expect(readdirSync(EXAMPLES).filter((f) => !scenarioFiles.includes(f))).toEqual(used);
  });

  for (const file of scenarioFiles) {
    it(`${file} validates without warnings and points editors at the shipped schema`, () => {
      const parsed = loadScenarioFile(join(EXAMPLES, file));
      expect(parsed.ok ? '' : formatIssues(parsed.errors)).toBe('');
      if (parsed.ok) expect(formatIssues(parsed.warnings)).toBe('');
      expect(readFileSync(join(EXAMPLES, file), 'utf8').split('\n')[0]).toBe(SCHEMA_LINE);
      expect(existsSync(join(EXAMPLES, '../public/scenario.schema.json'))).toBe(true);
    });
  }

  it('task-script.yaml: render_report shows its status messages, asks for approval and completes', async () => {
    const clock = createFakeClock();
    const engine = serve('task-script.yaml', clock);
    const created = await callTool(engine, 'render_report', { pages: 3 }, { caps: CAPS.formAndTasks });
    expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working', statusMessage: 'Rendering 3 pages', pollIntervalMs: 500 });
    const taskId: string = created.body.result.taskId;
    const get = async () => (await rpc(engine, 'tasks/get', { taskId }, { caps: CAPS.formAndTasks })).body.result;
    clock.advance(600);
    expect((await get()).statusMessage).toBe('Drawing the charts');
    clock.advance(900 + 300);
    const asking = await get();
    expect(asking).toMatchObject({ status: 'input_required', inputRequests: { approve: { params: { message: 'Publish the 3-page report?' } } } });
    await rpc(engine, 'tasks/update', { taskId, inputResponses: { approve: { action: 'accept', content: { publish: true } } } }, { caps: CAPS.formAndTasks });
    expect(await get()).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Published 3 pages (publish: true)' }] } });
  });

  it('task-script.yaml: publish_release waits for an advance; migrate_database outlives a cancel by 2 polls', async () => {
    const clock = createFakeClock();
    const engine = serve('task-script.yaml', clock);
    const release = (await callTool(engine, 'publish_release', {}, { caps: CAPS.tasks })).body.result.taskId as string;
    clock.advance(300_000);
    expect(await engine.tasks.get(release)).toMatchObject({ status: 'working', statusMessage: 'Waiting for the release manager' });
    expect((await engine.tasks.control(release, { kind: 'advance' }))?.status).toBe('completed');

    const migration = (await callTool(engine, 'migrate_database', {}, { caps: CAPS.tasks })).body.result.taskId as string;
    await rpc(engine, 'tasks/cancel', { taskId: migration }, { caps: CAPS.tasks });
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push((await rpc(engine, 'tasks/get', { taskId: migration }, { caps: CAPS.tasks })).body.result.status);
    expect(seen).toEqual(['working', 'working', 'cancelled']);
  });

  it('mrtr-rounds.yaml: delete_files answers input_required twice, then completes with both answers', async () => {
    const engine = serve('mrtr-rounds.yaml');
    const args = { pattern: '*.tmp' };
    const first = await callTool(engine, 'delete_files', args, { caps: CAPS.form });
    expect(first.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm: { params: { message: 'Delete every file matching *.tmp?' } } },
    });
    const confirm = { confirm: { action: 'accept', content: { confirm: true } } };
    const second = await callTool(engine, 'delete_files', args, {
      caps: CAPS.form,
      extra: { requestState: first.body.result.requestState, inputResponses: confirm },
    });
    expect(second.body.result).toMatchObject({ resultType: 'input_required', inputRequests: { scope: { method: 'elicitation/create' } } });
    const done = await callTool(engine, 'delete_files', args, {
      caps: CAPS.form,
      extra: { requestState: second.body.result.requestState, inputResponses: { scope: { action: 'accept', content: { recursive: false } } } },
    });
    expect(done.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Deleted the files matching *.tmp (subfolders: false)' }],
    });
    const declined = await callTool(engine, 'delete_files', args, {
      caps: CAPS.form,
      extra: { requestState: first.body.result.requestState, inputResponses: { confirm: { action: 'decline' } } },
    });
    expect(declined.body.result.content).toEqual([{ type: 'text', text: 'Nothing was deleted.' }]);
  });

  it('mrtr-rounds.yaml: answers sent without the requestState of their round are not taken, so no round is skipped', async () => {
    const engine = serve('mrtr-rounds.yaml');
    const args = { pattern: '*.log' };
    const both = { confirm: { action: 'accept', content: { confirm: true } }, scope: { action: 'accept', content: { recursive: true } } };
    // A first call was asked nothing: its answers are ignored and round 1 is asked, as the built-in delete_note does.
    const first = await callTool(engine, 'delete_files', args, { caps: CAPS.form, extra: { inputResponses: both } });
    expect(first.body.result).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    expect(Object.keys(first.body.result.inputRequests)).toEqual(['confirm']);
    // Round 1's requestState takes round 1's answer; round 2's question is still asked.
    const second = await callTool(engine, 'delete_files', args, {
      caps: CAPS.form,
      extra: { requestState: first.body.result.requestState, inputResponses: both },
    });
    expect(second.body.result).toMatchObject({ resultType: 'input_required' });
    expect(Object.keys(second.body.result.inputRequests)).toEqual(['scope']);
    const done = await callTool(engine, 'delete_files', args, {
      caps: CAPS.form,
      extra: { requestState: second.body.result.requestState, inputResponses: both },
    });
    expect(done.body.result.content).toEqual([{ type: 'text', text: 'Deleted the files matching *.log (subfolders: true)' }]);
  });

  it('elicitation.yaml: a form checked against its schema, and a URL the user is sent to', async () => {
    const engine = serve('elicitation.yaml');
    const form = await callTool(engine, 'sign_up', {}, { caps: CAPS.form });
    expect(form.body.result.inputRequests.profile.params).toMatchObject({ mode: 'form', requestedSchema: { required: ['name', 'email', 'plan'] } });
    const state = form.body.result.requestState;
    const invalid = await callTool(
      engine,
      'sign_up',
      {},
      {
        caps: CAPS.form,
        extra: { requestState: state, inputResponses: { profile: { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', plan: 'gold' } } } },
      },
    );
    expect(invalid.body.error).toMatchObject({ code: -32602 });
    const valid = await callTool(
      engine,
      'sign_up',
      {},
      {
        caps: CAPS.form,
        extra: { requestState: state, inputResponses: { profile: { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', plan: 'team' } } } },
      },
    );
    expect(valid.body.result.content[0].text).toBe('Welcome, Ada: team plan for ada@example.com');

    expect((await callTool(engine, 'connect_calendar', {}, { caps: CAPS.form })).body.error).toMatchObject({ code: -32021 });
    const url = await callTool(engine, 'connect_calendar', {}, { caps: CAPS.url });
    expect(url.body.result.inputRequests.authorize.params).toMatchObject({
      mode: 'url',
      url: expect.stringMatching(/^https:\/\//),
      elicitationId: 'calendar-authorization',
    });
    const connected = await callTool(
      engine,
      'connect_calendar',
      {},
      {
        caps: CAPS.url,
        extra: { requestState: url.body.result.requestState, inputResponses: { authorize: { action: 'accept' } } },
      },
    );
    expect(connected.body.result.content).toEqual([{ type: 'text', text: 'Your calendar is connected.' }]);
  });

  it('faults.yaml: the first get_forecast call crashes, the second answers, and the journal names the fault', async () => {
    const engine = serve('faults.yaml');
    const first = await callTool(engine, 'get_forecast', { city: 'Oslo' });
    expect(first.body.error).toEqual({ code: -32603, message: 'The forecast service crashed' });
    const second = await callTool(engine, 'get_forecast', { city: 'Oslo' });
    expect(second.body.result.content).toEqual([{ type: 'text', text: 'Sunny in Oslo' }]);
    expect(engine.journal.entries().find((e) => e.fault)?.fault).toBe('first-forecast-crashes');
  });

  it('mcp-app.yaml: the tool names its view, and the view is the HTML file with its CSP and permissions', async () => {
    const engine = serve('mcp-app.yaml');
    const tools = (await rpc(engine, 'tools/list', {}, { caps: UI_CAPS })).body.result.tools as { name: string; _meta?: unknown }[];
    expect(tools.find((t) => t.name === 'show_chart')?._meta).toEqual({ ui: { resourceUri: 'ui://charts/view.html' } });
    const plain = (await rpc(engine, 'tools/list')).body.result.tools as { name: string }[];
    expect(plain.map((t) => t.name)).toEqual(['show_chart']);
    const read = await rpc(engine, 'resources/read', { uri: 'ui://charts/view.html' }, { caps: UI_CAPS });
    const view = read.body.result.contents[0];
    expect(view.mimeType).toBe('text/html;profile=mcp-app');
    expect(view.text).toBe(readFileSync(join(EXAMPLES, 'mcp-app-view.html'), 'utf8'));
    expect(view._meta.ui).toMatchObject({
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'], frameDomains: [], baseUriDomains: [] },
      permissions: { clipboardWrite: {} },
      prefersBorder: true,
    });
    const called = await callTool(engine, 'show_chart', { series: 'rain' }, { caps: UI_CAPS });
    expect(called.body.result.structuredContent).toEqual({ series: 'rain', points: [1, 3, 2, 5, 4] });
  });

  it('resources-prompts.yaml: reads a resource and a template, fills a prompt and completes its argument', async () => {
    const engine = serve('resources-prompts.yaml');
    expect((await rpc(engine, 'resources/read', { uri: 'notes://about' })).body.result.contents[0].text).toContain('# Notes');
    expect((await rpc(engine, 'resources/read', { uri: 'notes://2' })).body.result.contents[0].text).toBe('Note 2: ship the release on Friday.');
    const prompt = await rpc(engine, 'prompts/get', { name: 'summarize_notes', arguments: { style: 'brief' } });
    expect(prompt.body.result.messages[0].content.text).toBe('Summarize notes://about in a brief style.');
    expect((await rpc(engine, 'prompts/get', { name: 'summarize_notes', arguments: {} })).body.error).toMatchObject({ code: -32602 });
    const completion = await rpc(engine, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'summarize_notes' },
      argument: { name: 'style', value: 'b' },
    });
    expect(completion.body.result.completion.values).toEqual(['brief', 'bullet points']);
  });
});
