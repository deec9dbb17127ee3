import type { z } from 'zod';
import { formatPath, type ScenarioIssue } from './issues';
import type { LocateTarget, Locator } from './yaml-locator';
import { isRecord } from '../shared/records';

/**
 * Turns zod issues into positioned scenario issues with messages written for scenario authors:
 * union failures are narrowed to the branch the author evidently meant, missing keys say so,
 * and zod's generic "Invalid input:" prefix is dropped.
 */

type ZodIssue = z.core.$ZodIssue;
type Flat = { path: PropertyKey[]; message: string; target: LocateTarget };

/** Converts every zod issue for `data` into {@link ScenarioIssue}s located with `locator`. */
export function toScenarioIssues(issues: readonly ZodIssue[], data: unknown, locator: Locator, source: string): ScenarioIssue[] {
  return issues
    .flatMap((issue) => flatten(issue, [], data))
    .map((flat) => ({ source, ...locator.locate(flat.path, flat.target), path: formatPath(flat.path), message: flat.message }));
}

function flatten(issue: ZodIssue, prefix: readonly PropertyKey[], data: unknown): Flat[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: [...path, key], message: `Unknown key "${key}"`, target: 'key' as const }));
  }
  if (issue.code === 'invalid_union') return flattenUnion(issue, path, data);
  const missing = path.length > 0 && isMissingKey(data, path);
  if (missing && issue.code === 'invalid_type') {
    const key = String(path[path.length - 1]);
    return [{ path, message: `Missing required key "${key}" (expected ${issue.expected})`, target: 'value' }];
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
