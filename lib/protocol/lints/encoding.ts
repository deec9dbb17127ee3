import type { Report, View } from './model';

/**
 * Text that is not UTF-8. A decoder turns each byte sequence it cannot read into U+FFFD, so by
 * the time a body is JSON the bad bytes are gone and the replacement characters are what is
 * left of them. A server may send U+FFFD on purpose, which is rare enough that the finding is
 * a warning, not an error.
 */

const REPLACEMENT = '\uFFFD';
/** Paths name keys this deep; deeper ones end in `…` (a path 10,000 keys long helps nobody). */
const PATH_DEPTH = 16;

const step = (path: string, key: string, depth: number) => (depth < PATH_DEPTH ? `${path}${key}` : depth === PATH_DEPTH ? `${path}…` : path);

/** How many U+FFFD the strings in `value` hold; iterative (depth cannot overflow) and without paths, as almost every body has none. */
function countReplacements(value: unknown): number {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      for (let i = v.indexOf(REPLACEMENT); i !== -1; i = v.indexOf(REPLACEMENT, i + 1)) count++;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v && typeof v === 'object') {
      for (const key in v) if (Object.hasOwn(v, key)) stack.push((v as Record<string, unknown>)[key]);
    }
  }
  return count;
}

/** The path of the first string in `value` holding U+FFFD (walked only once one is known to be there). */
function firstReplacement(value: unknown, root: string): string | undefined {
  const stack: [unknown, string, number][] = [[value, root, 0]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [v, path, depth] = top;
    if (typeof v === 'string') {
      if (v.includes(REPLACEMENT)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], step(path, `[${i}]`, depth), depth + 1]);
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], step(path, `.${entries[i]![0]}`, depth), depth + 1]);
    }
  }
  return undefined;
}

/** The first string in `value` holding U+FFFD, as its path, and how many it holds in all. */
function findReplacements(value: unknown, root: string): { path: string; count: number } | undefined {
  const count = countReplacements(value);
  const path = count ? firstReplacement(value, root) : undefined;
  return path === undefined ? undefined : { path, count };
}

/** The response and the stream frames before it. */
export function checkEncoding(v: View, report: Report): void {
  const found = findReplacements(v.res, 'response.body') ?? findReplacements(v.frames, 'frames');
  if (!found) return;
  report(
    'text-not-utf8',
    `${found.count} U+FFFD replacement character${found.count > 1 ? 's' : ''}, first at ${found.path}: bytes that were not UTF-8, replaced when decoded (JSON-RPC messages must be UTF-8)`,
    found.path,
  );
}
