import type { z } from 'zod';
import { formatPath, type ScenarioIssue } from './issues';
import type { LocateTarget, Locator } from './yaml-locator';
import { isRecord } from '../shared/records';

/**
 * Turns zod issues into positioned scenario issues with messages written for scenario authors:
 * union failures are narrowed to the branch the author evidently meant, missing keys say so,
 * unknown keys name the key the author probably meant, and zod's generic "Invalid input:"
 * prefix is dropped.
 */

type ZodIssue = z.core.$ZodIssue;
/** An issue at one path; `meant` (an unknown key's likely spelling) and `missing` (a required key) let typos absorb their echoes. */
type Flat = { path: PropertyKey[]; message: string; target: LocateTarget; meant?: string; missing?: boolean };

/**
 * Converts every zod issue for `data` into {@link ScenarioIssue}s located with `locator`. A
 * misspelled required key is one mistake, not two: "Missing required key" is left out where an
 * unknown key beside it is that key misspelled.
 */
export function toScenarioIssues(issues: readonly ZodIssue[], data: unknown, locator: Locator, source: string): ScenarioIssue[] {
  const flats = issues.flatMap((issue) => flatten(issue, [], data));
  const meant = new Set(flats.flatMap((f) => (f.meant === undefined ? [] : [formatPath([...f.path.slice(0, -1), f.meant])])));
  return flats
    .filter((flat) => !(flat.missing && meant.has(formatPath(flat.path))))
    .map((flat) => ({ source, ...locator.locate(flat.path, flat.target), path: formatPath(flat.path), message: flat.message }));
}

/**
 * The error map the loader parses scenarios with. An unknown key (a strict object's
 * `unrecognized_keys`) is answered with the closest known key, or the keys that are allowed
 * there, one line per key (`flatten` splits them), so `reslt` reads as a typo of `result`.
 */
export const scenarioErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'unrecognized_keys') return undefined;
  const known = knownKeys(issue.inst);
  if (known.length === 0) return undefined;
  return issue.keys.map((key) => unknownKeyMessage(key, known)).join('\n');
};

function knownKeys(inst: unknown): string[] {
  const def = isRecord(inst) && isRecord(inst._zod) ? inst._zod.def : undefined;
  return isRecord(def) && isRecord(def.shape) ? Object.keys(def.shape) : [];
}

function unknownKeyMessage(key: string, known: readonly string[]): string {
  const meant = closestKey(key, known);
  return meant === undefined ? `Unknown key "${key}"; allowed here: ${known.join(', ')}` : `Unknown key "${key}" (did you mean "${meant}"?)`;
}

/** The known key `key` is most likely a misspelling of (1 or 2 edits, by length), if any. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const ranked = known.map((k) => ({ k, d: distance(key.toLowerCase(), k.toLowerCase()) })).sort((a, b) => a.d - b.d);
  const best = ranked[0];
  return best && best.d <= Math.max(1, Math.min(2, Math.floor(best.k.length / 3))) ? best.k : undefined;
}

/** Edit distance (insertions, deletions, substitutions and swaps of neighbours). */
function distance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

function flatten(issue: ZodIssue, prefix: readonly PropertyKey[], data: unknown): Flat[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    // scenarioErrorMap wrote one line per key; without it (another parse) each key gets a plain line.
    const lines = issue.message.split('\n');
    return issue.keys.map((key, i) => {
      const line = lines.length === issue.keys.length && lines[i]?.includes(`"${key}"`) ? lines[i]! : `Unknown key "${key}"`;
      return { path: [...path, key], message: line, target: 'key' as const, meant: /did you mean "([^"]+)"/.exec(line)?.[1] };
    });
  }
  if (issue.code === 'invalid_union') return flattenUnion(issue, path, data);
  const missing = path.length > 0 && isMissingKey(data, path);
  if (missing && issue.code === 'invalid_type') {
    const key = String(path[path.length - 1]);
    return [{ path, message: `Missing required key "${key}" (expected ${issue.expected})`, target: 'value', missing: true }];
  }
  return [{ path, message: tidy(issue.message), target: 'value' }];
}

/**
 * zod reports a failed union as one issue holding every branch's issues. Authors meant one
 * branch: for scalars we list the accepted types; for objects we pick the branch whose keys
 * are all present (its errors are the real ones), else name the keys that would select a branch.
 */
function flattenUnion(issue: z.core.$ZodIssueInvalidUnion, path: PropertyKey[], data: unknown): Flat[] {
  const branches = issue.errors;
  const value = valueAt(data, path);
  if (branches.length === 0) return [{ path, message: tidy(issue.message), target: 'value' }];
  const shallowTypes = branches.every((b) => b.every((i) => i.path.length === 0 && i.code === 'invalid_type'));
  if (shallowTypes) {
    const expected = [...new Set(branches.flat().map((i) => (i.code === 'invalid_type' ? i.expected : '')))];
    return [{ path, message: `Expected ${expected.join(' or ')}, received ${typeName(value)}`, target: 'value' }];
  }
  const matching = branches.filter((b) =>
    b.every((i) => {
      const [head] = i.path;
      return !(head !== undefined && isMissingKey(data, [...path, head]));
    }),
  );
  const [firstMatching] = matching;
  if (firstMatching) return firstMatching.flatMap((inner) => flatten(inner, path, data));
  const selectors = [...new Set(branches.map((b) => b.find((i) => i.path.length >= 1)?.path[0]).filter((k) => k !== undefined))];
  const message =
    isRecord(value) && selectors.length > 0
      ? `Expected one of the keys ${selectors.map((k) => String(k)).join(', ')}`
      : `Expected ${describeBranches(branches)}, received ${typeName(value)}`;
  return [{ path, message, target: 'value' }];
}

function describeBranches(branches: readonly (readonly ZodIssue[])[]): string {
  const expected = branches.flatMap((b) => b.filter((i) => i.path.length === 0 && i.code === 'invalid_type').map((i) => (i as { expected: string }).expected));
  return expected.length > 0 ? [...new Set(expected)].join(' or ') : 'a different form';
}

function tidy(message: string): string {
  const stripped = message.replace(/^Invalid input: /, '');
  return stripped.charAt(0).toUpperCase() + stripped.slice(1);
}

/** True when the parent of `path` is an object that lacks its last key. */
function isMissingKey(data: unknown, path: readonly PropertyKey[]): boolean {
  const parent = valueAt(data, path.slice(0, -1));
  const key = path.at(-1);
  return isRecord(parent) && key !== undefined && typeof key !== 'symbol' && !Object.hasOwn(parent, key);
}

/** The raw value at `path`, or undefined when the path does not exist. */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current = data;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else if (isRecord(current) && typeof segment !== 'symbol' && Object.hasOwn(current, segment)) current = current[segment as string];
    else return undefined;
  }
  return current;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
