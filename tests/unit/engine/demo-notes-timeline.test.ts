import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { ScenarioSchema } from '../../../lib/scenario/schema';
import { createMemoryStores } from '../../../lib/store/memory';
import { callTool, rpc } from '../../helpers/rpc';

/** The demo's MCP App: notes_timeline, the app-only notes_detail and ui://notes/timeline.html. */

const UI = 'io.modelcontextprotocol/ui';
const UI_CAPS = { extensions: { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } } };
const URI = 'ui://notes/timeline.html';

let engine: MockEngine;
afterEach(() => engine?.close());

function setup(scenario = getBuiltinScenario('demo')!) {
  engine = createMockEngine({ scenario, stores: createMemoryStores() });
  return engine;
}

const toolNamed = (tools: { name: string }[], name: string) => tools.find((t) => t.name === name) as Record<string, unknown> | undefined;

describe('demo notes timeline app', () => {
  it('binds notes_timeline to ui://notes/timeline.html in tools/list before any call, for a ui client', async () => {
    setup();
    const r = await rpc(engine, 'tools/list', {}, { caps: UI_CAPS });
    const timeline = toolNamed(r.body.result.tools, 'notes_timeline');
    expect(timeline?._meta).toEqual({ ui: { resourceUri: URI } });
    const detail = toolNamed(r.body.result.tools, 'notes_detail');
    expect(detail?._meta).toEqual({ ui: { resourceUri: URI, visibility: ['app'] } });
    const discover = await rpc(engine, 'server/discover', {}, { caps: UI_CAPS });
    expect(discover.body.result.capabilities.extensions).toHaveProperty([UI]);
  });

  it('lists notes_timeline without _meta.ui, and hides the app-only tool, when the request lacks the ui extension', async () => {
    setup();
    const r = await rpc(engine, 'tools/list');
    const timeline = toolNamed(r.body.result.tools, 'notes_timeline');
    expect(timeline).toBeDefined();
    expect(timeline).not.toHaveProperty('_meta');
    expect(toolNamed(r.body.result.tools, 'notes_detail')).toBeUndefined();
  });

  it('returns the notes as structuredContent for the view when the ui extension is declared', async () => {
    setup();
    const r = await callTool(engine, 'notes_timeline', {}, { caps: UI_CAPS });
    const result = r.body.result;
    expect(result.resultType).toBe('complete');
    expect(result.content[0].text).toContain('Timeline of 5 notes, 2026-07-01 to 2026-07-20');
    expect(result.structuredContent.count).toBe(5);
    expect(result.structuredContent.notes.map((n: { id: string }) => n.id)).toEqual(['note-1', 'note-2', 'note-3', 'note-4', 'note-5']);
    expect(result.structuredContent.notes[0]).toEqual({ id: 'note-1', title: 'Quarterly planning', createdAt: '2026-07-01T09:00:00.000Z' });
  });

  it('falls back to a text timeline with no structuredContent without the ui extension', async () => {
    setup();
    const r = await callTool(engine, 'notes_timeline', {});
    const result = r.body.result;
    expect(result.structuredContent).toBeUndefined();
    expect(result.content).toHaveLength(1);
    const lines = result.content[0].text.split('\n');
    expect(lines[0]).toBe('Timeline of 5 notes, 2026-07-01 to 2026-07-20:');
    expect(lines.slice(1)).toEqual([
      '2026-07-01  note-1  Quarterly planning',
      '2026-07-03  note-2  Release checklist',
      '2026-07-08  note-3  Tasks extension questions',
      '2026-07-12  note-4  Grocery list',
      '2026-07-20  note-5  Retro notes',
    ]);
    const filtered = await callTool(engine, 'notes_timeline', { query: 'retro' });
    expect(filtered.body.result.content[0].text).toBe('Timeline of 1 note, 2026-07-20 to 2026-07-20:\n2026-07-20  note-5  Retro notes');
  });

  it('serves the view as text/html;profile=mcp-app with empty CSP domain lists, on the list entry and the content item', async () => {
    setup();
    const read = await rpc(engine, 'resources/read', { uri: URI }, { caps: UI_CAPS });
    const [item] = read.body.result.contents;
    expect(read.body.result.contents).toHaveLength(1);
    expect(item.mimeType).toBe('text/html;profile=mcp-app');
    expect(item._meta.ui.csp).toEqual({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
    expect(item.text).toMatch(/^<!doctype html>/i);
    // The App class is bundled in: the document needs no external script.
    expect(item.text).toContain('ui/initialize');
    expect(item.text).not.toMatch(/<script[^>]+src=/i);
    const list = await rpc(engine, 'resources/list', {}, { caps: UI_CAPS });
    const entry = list.body.result.resources.find((r: { uri: string }) => r.uri === URI);
    expect(entry).toMatchObject({ mimeType: 'text/html;profile=mcp-app', _meta: { ui: { csp: { connectDomains: [] } } } });
    expect(entry).not.toHaveProperty('text');
  });

  it('answers the app-only notes_detail with the note body, and a tool error for an unknown note', async () => {
    setup();
    const r = await callTool(engine, 'notes_detail', { noteId: 'note-4' }, { caps: UI_CAPS });
    expect(r.body.result.structuredContent.note.body).toBe('Coffee, oat milk, rye bread, lemons.');
    expect(r.body.result.content[0].text).toContain('Grocery list');
    const missing = await callTool(engine, 'notes_detail', { noteId: 'note-99' }, { caps: UI_CAPS });
    expect(missing.body.result.isError).toBe(true);
  });
});

describe('apps in scenario files', () => {
  it('serves a declared ui:// resource with its CSP domains, permissions and the app MIME type by default', async () => {
    const scenario = ScenarioSchema.parse({
      id: 'apps',
      server: { name: 'apps', version: '1.0.0' },
      tools: [
        { name: 'show', ui: { resourceUri: 'ui://apps/view.html', visibility: ['model', 'app'] }, result: { content: [{ type: 'text', text: 'shown' }] } },
      ],
      resources: [
        {
          uri: 'ui://apps/view.html',
          name: 'view',
          text: '<!doctype html><p>hi</p>',
          ui: { csp: { connectDomains: ['https://api.example.com'] }, permissions: { camera: {} }, prefersBorder: false },
        },
      ],
    });
    setup(scenario);
    const read = await rpc(engine, 'resources/read', { uri: 'ui://apps/view.html' }, { caps: UI_CAPS });
    const [item] = read.body.result.contents;
    expect(item.mimeType).toBe('text/html;profile=mcp-app');
    expect(item._meta.ui).toEqual({
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
      permissions: { camera: {} },
      prefersBorder: false,
    });
    const list = await rpc(engine, 'tools/list', {}, { caps: UI_CAPS });
    expect(list.body.result.tools[0]._meta).toEqual({ ui: { resourceUri: 'ui://apps/view.html', visibility: ['model', 'app'] } });
  });
});
