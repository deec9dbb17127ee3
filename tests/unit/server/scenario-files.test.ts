import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinScenarioYaml, createScenarioFiles, type ScenarioFiles } from '../../../lib/server/scenario-files';
import { parseScenario } from '../../../lib/scenario/loader';
import { builtinScenarioIds } from '../../../lib/scenario/builtins';

/** Saved scenarios under <dataDir>/scenarios: validated before writing, built-ins read-only. */

const VALID = (id: string) => `id: ${id}
name: Notes
server:
  name: notes
  version: "1.0.0"
tools:
  - name: echo
    result:
      content:
        - type: text
          text: hi
`;

describe('scenario files', () => {
  let dataDir: string;
  let files: ScenarioFiles;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'loupe-files-'));
    files = createScenarioFiles(dataDir);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serializes every built-in to YAML that validates as the same scenario', () => {
    for (const id of builtinScenarioIds()) {
      const text = builtinScenarioYaml(id)!;
      const parsed = parseScenario(text, `${id}.yaml`);
      expect(parsed.ok, id).toBe(true);
      if (parsed.ok) expect(parsed.scenario.id).toBe(id);
    }
    expect(files.source('demo')).toMatchObject({ builtin: true, text: expect.stringContaining('name: generate_report') });
  });

  it('saves a valid file atomically and lists it after the built-ins', () => {
    const saved = files.save('notes', VALID('notes'));
    expect(saved).toMatchObject({ ok: true, id: 'notes' });
    expect(readFileSync(join(dataDir, 'scenarios', 'notes.yaml'), 'utf8')).toBe(VALID('notes'));
    expect(readdirSync(join(dataDir, 'scenarios')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const list = files.list();
    expect(list.filter((s) => s.builtin).map((s) => s.id)).toEqual(builtinScenarioIds());
    expect(list.at(-1)).toEqual({ id: 'notes', name: 'Notes', builtin: false, valid: true });
    expect(files.load('notes')?.tools[0].name).toBe('echo');
    expect(files.source('notes')).toEqual({ text: VALID('notes'), builtin: false });
  });

  it('refuses an invalid file with every issue at its line and leaves the old file in place', () => {
    files.save('notes', VALID('notes'));
    const broken = VALID('notes').replace('  version: "1.0.0"', '  version: 3').replace('    result:', '    result: 7\n    extra:');
    const saved = files.save('notes', broken);
    expect(saved.ok).toBe(false);
    if (saved.ok) return;
    expect(saved.reason).toBe('invalid');
    expect(saved.issues!.map((i) => [i.line, i.path])).toEqual([
      [5, 'server.version'],
      [8, 'tools[0].result'],
      // The leftover mapping now sits under a key tools do not have: reported, not ignored.
      [9, 'tools[0].extra'],
    ]);
    expect(saved.issues![0].source).toBe('notes.yaml');
    expect(readFileSync(join(dataDir, 'scenarios', 'notes.yaml'), 'utf8')).toBe(VALID('notes'));
  });

  it('refuses a YAML syntax error at its line', () => {
    const saved = files.save('notes', `${VALID('notes')}  - name: [unclosed\n`);
    expect(saved.ok).toBe(false);
    if (!saved.ok) expect(saved.issues![0].line).toBeGreaterThanOrEqual(12);
    expect(existsSync(join(dataDir, 'scenarios', 'notes.yaml'))).toBe(false);
  });

  it('refuses a file whose id differs from the id it is saved under, pointing at the id line', () => {
    const saved = files.save('notes', `# comment\n${VALID('other')}`);
    expect(saved).toMatchObject({
      ok: false,
      reason: 'invalid',
      issues: [{ line: 2, column: 5, path: 'id', message: expect.stringContaining('must be "notes"') }],
    });
  });

  it('keeps built-ins read-only: save and delete are refused, duplicate is the way to edit', () => {
    expect(files.save('demo', builtinScenarioYaml('demo')!)).toMatchObject({ ok: false, reason: 'builtin', message: expect.stringContaining('duplicate') });
    expect(files.remove('demo')).toMatchObject({ ok: false, reason: 'builtin' });
    const copy = files.duplicate('demo', 'demo-copy');
    expect(copy).toMatchObject({ ok: true, id: 'demo-copy' });
    const text = files.source('demo-copy')!.text;
    expect(text).toMatch(/^id: demo-copy$/m);
    expect(text).toMatch(/^name: Loupe demo \(copy\)$/m);
    expect(files.load('demo-copy')?.tools.map((t) => t.name)).toContain('generate_report');
  });

  it('duplicates a saved scenario keeping its comments, and refuses an id that is taken', () => {
    files.save('notes', `# my notes mock\n${VALID('notes')}`);
    expect(files.duplicate('notes', 'notes-2')).toMatchObject({ ok: true });
    expect(files.source('notes-2')!.text).toContain('# my notes mock');
    expect(files.duplicate('notes', 'notes-2')).toMatchObject({ ok: false, reason: 'exists' });
    expect(files.duplicate('notes', 'demo')).toMatchObject({ ok: false, reason: 'exists' });
    expect(files.duplicate('nothing', 'x')).toMatchObject({ ok: false, reason: 'not-found' });
  });

  it('refuses ids that could reach outside the directory', () => {
    mkdirSync(join(dataDir, 'scenarios'), { recursive: true });
    writeFileSync(join(dataDir, 'secret.yaml'), VALID('secret'));
    for (const id of ['../secret', '..', 'a/b', '.hidden', 'Notes', 'notes.yaml', '', 'x'.repeat(65), 'a\\b', '%2e%2e']) {
      expect(files.save(id, VALID('x')), id).toMatchObject({ ok: false, reason: 'invalid-id' });
      expect(files.source(id), id).toBeUndefined();
      expect(files.load(id), id).toBeUndefined();
      expect(files.remove(id), id).toMatchObject({ ok: false, reason: 'invalid-id' });
      expect(files.duplicate('demo', id), id).toMatchObject({ ok: false, reason: 'invalid-id' });
    }
    expect(readFileSync(join(dataDir, 'secret.yaml'), 'utf8')).toBe(VALID('secret'));
  });

  it('refuses a resource file outside the scenarios directory', () => {
    writeFileSync(join(dataDir, 'secret'), 'token');
    const text = `${VALID('app')}resources:\n  - uri: test://x\n    name: x\n    file: ../secret\n`;
    const saved = files.save('app', text);
    expect(saved).toMatchObject({ ok: false, issues: [{ line: 15, path: 'resources[0].file', message: expect.stringContaining('inside') }] });
  });

  it('lists a hand-broken saved file as invalid and does not load it', () => {
    mkdirSync(join(dataDir, 'scenarios'), { recursive: true });
    writeFileSync(join(dataDir, 'scenarios', 'broken.yaml'), 'id: broken\nserver: 3\n');
    expect(files.list().find((s) => s.id === 'broken')).toEqual({ id: 'broken', builtin: false, valid: false });
    expect(files.load('broken')).toBeUndefined();
    expect(files.source('broken')?.text).toContain('server: 3');
  });

  it('deletes a saved scenario', () => {
    files.save('notes', VALID('notes'));
    expect(files.remove('notes')).toEqual({ ok: true });
    expect(files.source('notes')).toBeUndefined();
    expect(files.remove('notes')).toMatchObject({ ok: false, reason: 'not-found' });
  });

  it('validates text without writing it', () => {
    expect(files.validate(VALID('x'))).toMatchObject({ ok: true, errors: [] });
    const bad = files.validate('id: x\nserver: {}\n', 'draft.yaml');
    expect(bad.ok).toBe(false);
    expect(bad.errors[0]).toMatchObject({ source: 'draft.yaml', line: 2 });
    expect(readdirSync(join(dataDir, 'scenarios'))).toEqual([]);
  });
});
