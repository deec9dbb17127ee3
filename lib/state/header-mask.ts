import { HEADER } from '../protocol';
import { COOKIE_HEADER, isSecretHeaderName } from '../recording/connection';

/**
 * Header views (and Copy as cURL) hide secrets until the user reveals them: `Mcp-Name` on
 * tasks/* requests carries the task id (a bearer token), and the headers recordings redact by
 * name carry credentials: Authorization, Proxy-Authorization, Cookie, Set-Cookie, API keys
 * (`X-Api-Key`), anything named like a token, secret, password or credential (one rule,
 * lib/recording/connection.ts). A masked value keeps its scheme word ("Bearer …") so the reader
 * still sees what kind of credential it is.
 */

export interface HeaderRowView {
  name: string;
  value: string;
  masked: boolean;
}

/** Whether a header's value is hidden for an entry of `method`. */
export function isSecretHeader(name: string, method: string | undefined): boolean {
  if (COOKIE_HEADER.test(name) || isSecretHeaderName(name)) return true;
  return name.toLowerCase() === HEADER.name.toLowerCase() && !!method?.startsWith('tasks/');
}

function masked(name: string, value: string): string {
  const scheme = /^(bearer|basic|digest)\s+/i.exec(value)?.[1];
  const dots = '•'.repeat(Math.min(12, Math.max(4, value.length)));
  return scheme && name.toLowerCase().includes('authorization') ? `${scheme} ${dots}` : dots;
}

/** Rows for a header table, secrets masked unless `reveal`. Sorted by name. */
export function headerRows(headers: Record<string, string> | undefined, method: string | undefined, reveal: boolean): HeaderRowView[] {
  return Object.entries(headers ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => {
      const secret = isSecretHeader(name, method);
      return { name, value: secret && !reveal ? masked(name, value) : value, masked: secret && !reveal };
    });
}
