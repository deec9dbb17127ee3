import { closeSync, fstatSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fsReason } from '../shared/fs-reasons';
import { parseScenario, type FileRead, type ScenarioParse } from './loader';

/**
 * Node-only scenario loading: reads a scenario file and the resource files it names.
 * Issues carry the path as given, so `mcp-loupe validate demo.yaml` prints `demo.yaml:12:5 …`.
 */

/**
 * Largest scenario file read from disk. A real scenario is a few kilobytes, and large app HTML or
 * resource bodies belong in `file:` entries; a 62 MB file of 60,000 tools used to take four
 * minutes and 2.3 GB to be told it was wrong.
 */
const MAX_SCENARIO_FILE_BYTES = 8 * 1024 * 1024;

/**
 * Reads and validates the scenario at `path`, filling each resource's `file:` (relative to the
 * scenario's directory) into its `text`. An unreadable scenario or resource file is an issue.
 */
export function loadScenarioFile(path: string): ScenarioParse {
  const refuse = (message: string): ScenarioParse => ({ ok: false, errors: [{ source: path, line: 1, column: 1, path: '', message }] });
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const tooBig = (size?: number) =>
    refuse(
      `The scenario file is ${size === undefined ? '' : `${mib(size)}, `}over the limit of ${mib(MAX_SCENARIO_FILE_BYTES)}: move large resource or app HTML bodies into \`file:\` entries`,
    );
  let text: string | undefined;
  try {
    const { size } = statSync(path);
    if (size > MAX_SCENARIO_FILE_BYTES) return tooBig(size);
    text = readTextUpTo(path, MAX_SCENARIO_FILE_BYTES);
  } catch (error) {
    return refuse(`Cannot read the scenario file: ${fsReason(error)}`);
  }
  // A pipe has no size to stat: it is refused once it passes the limit.
  if (text === undefined) return tooBig();
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
    return { ok: false, message: `Cannot read resource file "${file}": ${fsReason(error)}` };
  }
  const inside = relative(root, target);
  // Compare path components, not string prefixes: "/data-evil" must not pass for "/data".
  if (inside === '' || isAbsolute(inside) || inside.split(sep)[0] === '..') {
    return { ok: false, message: `Resource file "${file}" must be inside the scenario's directory` };
  }
  try {
    return { ok: true, text: readFileSync(target, 'utf8') };
  } catch (error) {
    return { ok: false, message: `Cannot read resource file "${file}": ${fsReason(error)}` };
  }
}

/**
 * Reads a file as UTF-8, or undefined once it passes `max` bytes. Regular files and pipes only
 * (`validate <(gen)` and `/dev/stdin` work): a device such as `/dev/zero` never ends, a terminal
 * waits for typing, and `readFileSync` on either hung the command and filled memory.
 */
export function readTextUpTo(path: string, max: number): string | undefined {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error('it is a directory'), { code: 'EISDIR' });
    if (!stat.isFile() && !stat.isFIFO()) throw Object.assign(new Error('it is a device or a socket, not a file'), { code: 'ENOTFILE' });
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(64 * 1024);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) return Buffer.concat(chunks, total).toString('utf8');
      total += n;
      if (total > max) return undefined;
      chunks.push(chunk.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
}
