import fs from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument, stringify } from 'yaml';
import { builtinScenarioIds, builtinScenarioInput } from '../scenario/builtins';
import { loadScenarioFile, parseScenarioIn } from '../scenario/files';
import type { ScenarioIssue } from '../scenario/loader';
import type { Scenario } from '../scenario/schema';
import { SCENARIO_SCHEMA_NOTE } from '../shared/scenario-schema-note';
import type { ScenarioSummary, ScenarioValidation } from '../protocol/loupe-api';
import { makeDataDir, makeDir } from '../store/sqlite/make-dir';
import { writeAtomic } from './write-atomic';

/**
 * Saved scenarios: `<dataDir>/scenarios/<id>.yaml` (node only). Files are validated before they
 * are written and written atomically, so a running mock only ever loads a valid scenario.
 * Built-ins are read-only; they are copied under a new id to be edited. So are the files given on
 * the command line (`mcp-loupe --scenario FILE`, `mcp-loupe mock FILE`): pinned for the process, served beside the
 * built-ins under the ids their files declare, edited in those files.
 */

/** Scenario ids: what `/mcp/<id>` and file names accept. No dots or slashes, so no path tricks. */
const SCENARIO_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Largest scenario file accepted through the control API. */
export const MAX_SCENARIO_BYTES = 1024 * 1024;

/** Whether `id` is a valid scenario id. */
export function isScenarioId(id: unknown): id is string {
  return typeof id === 'string' && SCENARIO_ID.test(id);
}

/** Why a write was refused; `issues` lists validation errors with their lines. */
export type FileRefusal = {
  ok: false;
  reason: 'invalid-id' | 'builtin' | 'exists' | 'not-found' | 'too-large' | 'invalid';
  message: string;
  issues?: ScenarioIssue[];
};

/** A scenario file given on the command line: read-only here, listed and served under its own id. */
export interface PinnedScenario {
  scenario: Scenario;
  /** Its path, as the list shows it and the source route reads it. */
  file: string;
}

/** Outcome of saving or duplicating. */
export type SaveOutcome = { ok: true; id: string; scenario: Scenario; warnings: ScenarioIssue[] } | FileRefusal;

/** The saved-scenario directory of one data directory. */
export interface ScenarioFiles {
  readonly dir: string;
  list(): ScenarioSummary[];
  /** The YAML text of a built-in (serialized) or saved scenario. */
  source(id: string): { text: string; builtin: boolean } | undefined;
  /** A saved scenario, validated; undefined when missing or invalid. */
  load(id: string): Scenario | undefined;
  /** Check text as it would be saved, without writing. */
  validate(text: string, source?: string): ScenarioValidation;
  save(id: string, text: string): SaveOutcome;
  duplicate(id: string, newId: string): SaveOutcome;
  remove(id: string): { ok: true } | FileRefusal;
}

const refuse = (reason: FileRefusal['reason'], message: string, issues?: ScenarioIssue[]): FileRefusal => ({
  ok: false,
  reason,
  message,
  ...(issues ? { issues } : {}),
});

/** YAML of a built-in scenario as authored (defaults left out), for the editor and duplicates. */
export function builtinScenarioYaml(id: string): string | undefined {
  const input = builtinScenarioInput(id);
  if (!input) return undefined;
  return `# Loupe scenario.\n# ${SCENARIO_SCHEMA_NOTE}.\n${stringify(input, { lineWidth: 100 })}`;
}

/** Where `text` writes the top-level `id` (1-based), for an issue when it disagrees with the path. */
function idPosition(text: string): { line: number; column: number } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  const node = doc.get('id', true) as { range?: [number, number, number] } | undefined;
  return node?.range ? { line: counter.linePos(node.range[0]).line, column: counter.linePos(node.range[0]).col } : { line: 1, column: 1 };
}

/** Scenario files under `<dataDir>/scenarios`, beside the built-ins and the `pinned` ones. */
export function createScenarioFiles(dataDir: string, pinned: readonly PinnedScenario[] = []): ScenarioFiles {
  const dir = path.join(dataDir, 'scenarios');
  const builtins = new Set(builtinScenarioIds());
  const pins = new Map(pinned.map((p) => [p.scenario.id, p]));
  /** Why `id` cannot be changed here, when it is a built-in or pinned. */
  const readOnly = (id: string, change: string): FileRefusal | undefined => {
    const pin = pins.get(id);
    if (pin) return refuse('builtin', `"${id}" comes from ${pin.file} (given on the command line) and cannot be ${change} here; edit that file`);
    if (builtins.has(id))
      return refuse(
        'builtin',
        `"${id}" is a built-in scenario and cannot be ${change}${change === 'changed' ? '; duplicate it under a new id to edit it' : ''}`,
      );
    return undefined;
  };
  const fileOf = (id: string) => path.join(dir, `${id}.yaml`);
  const exists = (id: string) => fs.existsSync(fileOf(id));
  const ensureDir = () => {
    makeDataDir(dataDir);
    makeDir(dir);
  };

  function checkId(id: string, what = 'scenario id'): FileRefusal | undefined {
    if (!isScenarioId(id))
      return refuse('invalid-id', `Invalid ${what} "${id}": use 1 to 64 lowercase letters, digits and dashes, starting with a letter or digit`);
    return undefined;
  }

  function validate(text: string, source = 'scenario.yaml'): ScenarioValidation {
    ensureDir();
    const parsed = parseScenarioIn(text, source, dir);
    return parsed.ok ? { ok: true, errors: [], warnings: parsed.warnings } : { ok: false, errors: parsed.errors, warnings: [] };
  }

  /** Validate, then write through a temporary file and rename, so readers never see half a file. */
  function write(id: string, text: string): SaveOutcome {
    if (Buffer.byteLength(text, 'utf8') > MAX_SCENARIO_BYTES) return refuse('too-large', `Scenario is larger than ${MAX_SCENARIO_BYTES} bytes`);
    ensureDir();
    const source = `${id}.yaml`;
    const parsed = parseScenarioIn(text, source, dir);
    if (!parsed.ok) return refuse('invalid', `${source} has ${parsed.errors.length} error(s)`, parsed.errors);
    if (parsed.scenario.id !== id) {
      const at = idPosition(text);
      const issue: ScenarioIssue = {
        source,
        ...at,
        path: 'id',
        message: `The id in the file ("${parsed.scenario.id}") must be "${id}", the id it is saved under`,
      };
      return refuse('invalid', `${source} has 1 error(s)`, [issue]);
    }
    // Names the file and the reason ("a part of its path is a file"), never the temp file, and leaves none behind.
    writeAtomic(fileOf(id), text);
    return { ok: true, id, scenario: parsed.scenario, warnings: parsed.warnings };
  }

  function source(id: string): { text: string; builtin: boolean } | undefined {
    if (!isScenarioId(id)) return undefined;
    if (builtins.has(id)) return { text: builtinScenarioYaml(id)!, builtin: true };
    const pin = pins.get(id);
    try {
      if (pin) return { text: fs.readFileSync(pin.file, 'utf8'), builtin: true };
      return { text: fs.readFileSync(fileOf(id), 'utf8'), builtin: false };
    } catch {
      return undefined;
    }
  }

  return {
    dir,
    list() {
      const rows: ScenarioSummary[] = [...builtins].map((id) => {
        const input = builtinScenarioInput(id)!;
        return { id, name: input.name, description: input.description, builtin: true, valid: true };
      });
      for (const { scenario: s, file } of pins.values()) rows.push({ id: s.id, name: s.name, description: s.description, builtin: true, valid: true, file });
      let names: string[] = [];
      try {
        names = fs.readdirSync(dir);
      } catch {
        /* no saved scenarios yet */
      }
      for (const name of names.sort()) {
        const id = name.endsWith('.yaml') ? name.slice(0, -5) : '';
        if (!isScenarioId(id) || builtins.has(id) || pins.has(id)) continue;
        const parsed = loadScenarioFile(fileOf(id));
        rows.push(
          parsed.ok
            ? { id, name: parsed.scenario.name, description: parsed.scenario.description, builtin: false, valid: true }
            : { id, builtin: false, valid: false },
        );
      }
      return rows;
    },
    source,
    load(id) {
      if (!isScenarioId(id) || builtins.has(id) || pins.has(id) || !exists(id)) return undefined;
      const parsed = loadScenarioFile(fileOf(id));
      return parsed.ok && parsed.scenario.id === id ? parsed.scenario : undefined;
    },
    validate,
    save(id, text) {
      const bad = checkId(id);
      if (bad) return bad;
      return readOnly(id, 'changed') ?? write(id, text);
    },
    duplicate(id, newId) {
      const bad = checkId(id) ?? checkId(newId, 'new scenario id');
      if (bad) return bad;
      if (builtins.has(newId) || pins.has(newId) || exists(newId)) return refuse('exists', `A scenario with id "${newId}" already exists`);
      const original = source(id);
      if (!original) return refuse('not-found', `Unknown scenario: ${id}`);
      const doc = parseDocument(original.text);
      const [yamlError] = doc.errors;
      if (yamlError) return refuse('invalid', `${id}.yaml cannot be copied: it is not valid YAML (${yamlError.message})`);
      doc.set('id', newId);
      const name = doc.get('name');
      if (typeof name === 'string') doc.set('name', `${name} (copy)`);
      return write(newId, doc.toString({ lineWidth: 100 }));
    },
    remove(id) {
      const bad = checkId(id);
      if (bad) return bad;
      const fixed = readOnly(id, 'deleted');
      if (fixed) return fixed;
      try {
        fs.unlinkSync(fileOf(id));
        return { ok: true };
      } catch {
        return refuse('not-found', `Unknown scenario: ${id}`);
      }
    },
  };
}
