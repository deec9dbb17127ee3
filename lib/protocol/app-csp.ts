import { asRecord } from '../shared/records';
import { CSP_LISTS, type UiCsp } from './apps';

/**
 * The Content-Security-Policy a host puts on the sandbox page of an MCP App, built from the
 * domains the UI resource declares and nothing else. The view's document inherits it (it is
 * written into the sandbox page's inner frame), so this one header governs every fetch,
 * script, style, image and frame the view can reach.
 *
 * Compared with the ext-apps table, `'self'` is left out everywhere: the sandbox origin is
 * Loupe's own server under another host name, not the app's server, so allowing it would
 * open Loupe's routes to the view. Undeclared means `'none'` (no loosening; tightening is allowed).
 */

/** Entries per list beyond this are dropped (a header has to stay a reasonable size). */
const MAX_CSP_ENTRIES = 32;
const MAX_ENTRY_LENGTH = 253;

/**
 * An origin (`https://cdn.example.com`, `wss://x.example.com:8443`, `http://127.0.0.1:4000`) or a
 * host pattern (`*.example.com`, `cdn.example.com`): scheme http/https/wss, an optional `*.`
 * wildcard label, host labels or an IPv6 literal, an optional port or `:*`, an optional `/`.
 * Nothing else gets through: no `;` `,` quotes, spaces, keywords, paths or bare `*`.
 */
const ENTRY =
  /^(?:(?:https?|wss):\/\/)?(?:\*\.)?(?:(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?|\[[0-9a-f:.]+\])(?::(?:\d{1,5}|\*))?\/?$/i;

/** A domain entry that was dropped, with the list it came from and why. */
interface RejectedEntry {
  list: (typeof CSP_LISTS)[number];
  entry: string;
  reason: string;
}

/** Whether one declared entry may go into a CSP directive as it is. */
export function isSafeCspEntry(entry: unknown): entry is string {
  return typeof entry === 'string' && entry.length <= MAX_ENTRY_LENGTH && ENTRY.test(entry);
}

/** Keep the safe entries of one declared list (deduplicated, trailing `/` removed); report the rest. */
function sanitizeCspList(list: (typeof CSP_LISTS)[number], entries: unknown): { kept: string[]; rejected: RejectedEntry[] } {
  const kept: string[] = [];
  const rejected: RejectedEntry[] = [];
  if (entries === undefined || entries === null) return { kept, rejected };
  if (!Array.isArray(entries)) return { kept, rejected: [{ list, entry: String(entries), reason: 'not a list' }] };
  for (const entry of entries) {
    if (!isSafeCspEntry(entry)) {
      rejected.push({ list, entry: typeof entry === 'string' ? entry : JSON.stringify(entry), reason: 'not an http(s)/wss origin or host pattern' });
      continue;
    }
    const clean = entry.replace(/\/$/, '').toLowerCase();
    if (kept.length >= MAX_CSP_ENTRIES) rejected.push({ list, entry, reason: `more than ${MAX_CSP_ENTRIES} entries` });
    else if (!kept.includes(clean)) kept.push(clean);
  }
  return { kept, rejected };
}

/** The declared lists after sanitising, plus what was dropped. */
export function sanitizeUiCsp(csp: unknown): { csp: Required<Pick<UiCsp, (typeof CSP_LISTS)[number]>>; rejected: RejectedEntry[] } {
  const source = asRecord(csp) ?? {};
  const out = { connectDomains: [] as string[], resourceDomains: [] as string[], frameDomains: [] as string[], baseUriDomains: [] as string[] };
  const rejected: RejectedEntry[] = [];
  for (const list of CSP_LISTS) {
    const r = sanitizeCspList(list, source[list]);
    out[list] = r.kept;
    rejected.push(...r.rejected);
  }
  return { csp: out, rejected };
}

/** The built policy: the header value, its directives, and the entries that were dropped. */
export interface AppCsp {
  header: string;
  directives: Record<string, string[]>;
  rejected: RejectedEntry[];
}

/**
 * Build the sandbox page's CSP from a resource's declared `csp`. `frameAncestors` are the
 * origins allowed to embed the sandbox page (the inspector's own origin); each must already be
 * a validated origin, and anything unsafe among them is dropped too.
 */
export function buildAppCsp(csp: unknown, frameAncestors: readonly string[]): AppCsp {
  const { csp: d, rejected } = sanitizeUiCsp(csp);
  const or = (list: string[], fallback: string) => (list.length ? list : [fallback]);
  const ancestors = frameAncestors.filter((a) => isSafeCspEntry(a) && /^https?:\/\//i.test(a));
  const directives: Record<string, string[]> = {
    'default-src': ["'none'"],
    'script-src': ["'unsafe-inline'", ...d.resourceDomains],
    'style-src': ["'unsafe-inline'", ...d.resourceDomains],
    'img-src': ['data:', 'blob:', ...d.resourceDomains],
    'font-src': ['data:', ...d.resourceDomains],
    'media-src': ['data:', 'blob:', ...d.resourceDomains],
    'connect-src': or(d.connectDomains, "'none'"),
    'frame-src': or(d.frameDomains, "'none'"),
    'base-uri': or(d.baseUriDomains, "'none'"),
    'object-src': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': or(ancestors, "'none'"),
  };
  const header = Object.entries(directives)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');
  return { header, directives, rejected };
}
