import { execFileSync, spawn } from 'node:child_process';
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

describe('loadScenarioFile on what is not a regular file', () => {
  it.runIf(process.platform === 'linux')('refuses a device at once instead of reading /dev/zero forever', () => {
    const r = loadScenarioFile('/dev/zero');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.message).toBe('Cannot read the scenario file: it is a device or a socket, not a file');
  });

  it.runIf(process.platform !== 'win32')('reads a pipe (validate <(gen)) and refuses one that passes the 8 MiB limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-fifo-'));
    try {
      const fifo = join(dir, 'scenario.fifo');
      execFileSync('mkfifo', [fifo]);
      // A writer in another process: opening a FIFO blocks until both ends are open.
      const feed = (bytes: string) =>
        spawn(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(fifo)}, process.argv[1])`, bytes], { stdio: 'ignore' });
      const small = feed('id: piped\nserver: { name: p, version: "1" }\ntools: []\n');
      const ok = loadScenarioFile(fifo);
      await new Promise((done) => small.on('close', done));
      expect(ok).toMatchObject({ ok: true, scenario: { id: 'piped' } });
      const huge = spawn(
        process.execPath,
        [
          '-e',
          `const fs=require('fs');const fd=fs.openSync(${JSON.stringify(fifo)},'w');const b=Buffer.alloc(1<<20,35);try{for(let i=0;i<12;i++)fs.writeSync(fd,b)}catch{}`,
        ],
        { stdio: 'ignore' },
      );
      const big = loadScenarioFile(fifo);
      huge.kill();
      expect(big.ok).toBe(false);
      if (!big.ok)
        expect(big.errors[0]?.message).toBe('The scenario file is over the limit of 8.0 MiB: move large resource or app HTML bodies into `file:` entries');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
