import type { z } from 'zod';

/**
 * A zod error as one line a person can act on: "env.PATH: a value must not contain a NUL byte".
 * A record's bad key comes as "Invalid key in record" with the reason nested: the reason is
 * what is said. A path segment with control characters (a key holding a NUL byte) is written
 * JSON-escaped, so the message stays printable.
 */
export function describeIssues(error: z.ZodError, root = '(root)'): string {
  return error.issues
    .map((issue) => {
      const nested = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
      return `${pathText(issue.path) || root}: ${nested ?? issue.message}`;
    })
    .join('; ');
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'string' && hasControl(p) ? JSON.stringify(p) : String(p))).join('.');
}

/** Whether `text` holds a C0 control character or DEL (char codes, not a regular expression the linter reads as a mistake). */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
