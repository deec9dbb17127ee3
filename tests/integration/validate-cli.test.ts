import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/processes';

/** `mcp-loupe validate` as an author runs it: the examples pass, a typo fails with its line and field. */

const CLI = path.join(ROOT, 'bin/mcp-loupe.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-validate-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function validate(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, 'validate', file], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('mcp-loupe validate', () => {
  it('passes every scenario in examples/', async () => {
    const files = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const file of files) {
      const r = await validate(`examples/${file}`);
      expect([file, r.code, r.stderr]).toEqual([file, 0, '']);
      expect(r.stdout).toMatch(/valid scenario "example-/);
    }
  });

  it('counts the tools in words that agree with the count', async () => {
    const file = path.join(dir, 'one.yaml');
    fs.writeFileSync(file, 'id: one\nserver: { name: t, version: "1" }\ntools:\n  - name: echo\n    result: { content: [] }\n');
    expect((await validate(file)).stdout).toBe(`${file}: valid scenario "one" (1 tool)\n`);
    expect((await validate('examples/mcp-app.yaml')).stdout).toBe('examples/mcp-app.yaml: valid scenario "example-app" (2 tools)\n');
  });

  it('refuses a YAML tag that is not a JSON type in validate and when mock loads the file, at the tag', async () => {
    const file = path.join(dir, 'tags.yaml');
    fs.writeFileSync(file, 'id: tags\nserver: { name: t, version: "1" }\ntools:\n  - name: bin\n    result: { structuredContent: { v: !!binary aGVsbG8= } }\n');
    const expected = `${file}:5:39 The YAML tag !!binary is not allowed`;
    const validated = await validate(file);
    expect([validated.code, validated.stderr]).toEqual([1, expect.stringContaining(expected)]);
    const mocked = await runCli(['mock', file, '--store', 'memory', '--port', '0'], { timeoutMs: 30_000 });
    expect([mocked.code, mocked.stderr]).toEqual([2, expect.stringContaining(expected)]);
  });

  it('fails on a misspelled key, naming its line, the field and the key meant', async () => {
    const file = path.join(dir, 'typo.yaml');
    fs.writeFileSync(file, 'id: typo\nserver: { name: t, version: "1" }\ntools:\n  - name: echo\n    reslt: { content: [] }\n');
    const r = await validate(file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:5:5 tools[0].reslt: Unknown key "reslt" (did you mean "result"?)`);
    expect(r.stderr).toContain('1 error(s)');
  });

  it('reports the old README MCP Apps example as one error about quoting, not a cascade', async () => {
    const r = await validate('tests/fixtures/scenarios/readme-apps-broken.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/readme-apps-broken\.yaml:4:\d+ .*quote the value/);
    expect(r.stderr).toContain('1 error(s)');
  });
  it('prints every error to a pipe, down to the count line, however long the list', async () => {
    const file = path.join(dir, 'many.yaml');
    const tools = Array.from({ length: 3000 }, (_, i) => `  - name: t${i}\n    description: a tool with no behaviour\n`).join('');
    fs.writeFileSync(file, `id: many\nserver: { name: t, version: "1" }\ntools:\n${tools}`);
    const r = await validate(file);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(`3000 error(s) in ${file}`);
  });

  it('refuses a scenario file over 8 MiB at once, saying where large bodies belong', async () => {
    const file = path.join(dir, 'huge.yaml');
    fs.writeFileSync(file, `id: huge\nserver: { name: t, version: "1" }\n# ${'x'.repeat(9 * 1024 * 1024)}\ntools: []\n`);
    const r = await validate(file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The scenario file is 9.0 MiB, over the limit of 8.0 MiB: move large resource or app HTML bodies into `file:` entries');
  });
});
