import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../../lib/scenario/files';

const SCENARIO = (file: string) => `id: app
server: { name: app, version: "1" }
tools:
  - name: show
    ui: { resourceUri: ui://app/view.html }
    result: { content: [] }
resources:
  - uri: ui://app/view.html
    name: view
    mimeType: text/html;profile=mcp-app
    file: ${file}
`;

describe('loadScenarioFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-scenario-'));
    mkdirSync(join(dir, 'views'));
    writeFileSync(join(dir, 'views', 'view.html'), '<h1>timeline</h1>');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fills a resource file: relative to the scenario into text', () => {
    const path = join(dir, 'app.yaml');
    writeFileSync(path, SCENARIO('views/view.html'));
    const result = loadScenarioFile(path);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.scenario.resources[0].text).toBe('<h1>timeline</h1>');
    expect(result.warnings).toEqual([]);
  });

  it('reports a missing resource file at its line, naming the scenario file', () => {
    const path = join(dir, 'app.yaml');
    writeFileSync(path, SCENARIO('views/gone.html'));
    const result = loadScenarioFile(path);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { source: path, line: 11, column: 11, path: 'resources[0].file', message: 'Cannot read resource file "views/gone.html": no such file' },
    ]);
  });

  it('refuses resource files outside the scenario directory', () => {
    const inner = join(dir, 'inner');
    mkdirSync(inner);
    writeFileSync(join(inner, 'app.yaml'), SCENARIO('../views/view.html'));
    symlinkSync(join(dir, 'views', 'view.html'), join(inner, 'link.html'));
    writeFileSync(join(inner, 'linked.yaml'), SCENARIO('link.html'));
    for (const name of ['app.yaml', 'linked.yaml']) {
      const result = loadScenarioFile(join(inner, name));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors[0].message).toMatch(/must be inside the scenario's directory/);
    }
  });

  it('reports an unreadable scenario file', () => {
    const path = join(dir, 'missing.yaml');
    const result = loadScenarioFile(path);
    expect(result).toEqual({ ok: false, errors: [{ source: path, line: 1, column: 1, path: '', message: 'Cannot read the scenario file: no such file' }] });
  });
});
