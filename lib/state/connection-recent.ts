import { linkQuery, parseLinkQuery, type ConnectionLink } from '../protocol/launch-link';

/**
 * Recent connections, remembered in the browser (localStorage) and offered in the connection bar.
 * Each is kept as its page-URL query (lib/protocol/launch-link.ts), so what is stored is exactly
 * what a link may carry: where, how, the era and the header names, never a header value or token.
 */

const KEY = 'loupe:recent-connections';
/** How many are kept, newest first. */
const MAX_RECENT = 8;

/** A storage with the two calls used here (localStorage, or a stand-in in tests). */
type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

/** A remembered connection: its link and the query that names it (a stable key). */
export interface RecentConnection {
  query: string;
  link: ConnectionLink;
}

function browserStore(): KeyValueStore | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** The remembered connections, newest first; anything unreadable is dropped. */
export function loadRecent(store: KeyValueStore | undefined = browserStore()): RecentConnection[] {
  let raw: unknown;
  try {
    raw = JSON.parse(store?.getItem(KEY) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const out: RecentConnection[] = [];
  for (const q of raw) {
    const link = typeof q === 'string' ? parseLinkQuery(q) : undefined;
    if (link && typeof q === 'string') out.push({ query: linkQuery(link), link });
  }
  return out.slice(0, MAX_RECENT);
}

/** Put `link` first in the list (once); returns the new list. */
export function rememberRecent(link: ConnectionLink, store: KeyValueStore | undefined = browserStore()): RecentConnection[] {
  const query = linkQuery(link);
  const list = [{ query, link }, ...loadRecent(store).filter((r) => r.query !== query)].slice(0, MAX_RECENT);
  try {
    store?.setItem(KEY, JSON.stringify(list.map((r) => r.query)));
  } catch {
    /* storage full or disabled: the list just is not remembered */
  }
  return list;
}

/** A short label: the URL or command line, how, and the era when it is not auto. */
export function recentLabel(link: ConnectionLink): string {
  const where = link.transport === 'stdio' ? [link.command, ...link.args].join(' ') : link.url;
  return `${where} · ${link.transport}${link.era === 'auto' ? '' : ` · ${link.era}`}`;
}
