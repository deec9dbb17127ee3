import { readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { parseScenario, type FileRead, type ScenarioParse } from './loader';

/**
 * Node-only scenario loading: reads a scenario file and the resource files it names.
 * Issues carry the path as given, so `mcp-loupe validate demo.yaml` prints `demo.yaml:12:5 …`.
 */

/**
 * Reads and validates the scenario at `path`, filling each resource's `file:` (relative to the
 * scenario's directory) into its `text`. An unreadable scenario or resource file is an issue.
 */
export function loadScenarioFile(path: string): ScenarioParse {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { ok: false, errors: [{ source: path, line: 1, column: 1, path: '', message: `Cannot read the scenario file: ${describe(error)}` }] };
  }
  const base = dirname(resolve(path));
  return parseScenario(text, path, { readResourceFile: (file) => readBeside(base, file) });
}

/**
 * Validates scenario text as though it were a file in `dir`: resource `file:` entries are read
 * from inside that directory. Used to check a scenario before it is saved there.
 */
export function parseScenarioIn(text: string, source: string, dir: string): ScenarioParse {
  return parseScenario(text, source, { readResourceFile: (file) => readBeside(dir, file) });
}

/**
 * Reads `file` from inside `base`. Scenarios can arrive through the control API, so a resource
 * may not reach outside the scenario's directory (by `..`, an absolute path or a symlink):
 * otherwise saving a scenario would publish any file the server can read.
 */
function readBeside(base: string, file: string): FileRead {
  let target: string;
  let root: string;
  try {
    root = realpathSync(base);
    target = realpathSync(resolve(base, file));
  } catch (error) {
    return { ok: false, message: `Cannot read resource file "${file}": ${describe(error)}` };
  }
  const inside = relative(root, target);
  // Compare path components, not string prefixes: "/data-evil" must not pass for "/data".
  if (inside === '' || isAbsolute(inside) || inside.split(sep)[0] === '..') {
    return { ok: false, message: `Resource file "${file}" must be inside the scenario's directory` };
  }
  try {
    return { ok: true, text: readFileSync(target, 'utf8') };
  } catch (error) {
    return { ok: false, message: `Cannot read resource file "${file}": ${describe(error)}` };
  }
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return error instanceof Error ? error.message : String(error);
}
