import { z } from 'zod';
import type { RequestOptions } from './connection-types';
import type { RequestOutcome } from './results';
import { inSlices, yieldToEventLoop } from './yield-slices';

/**
 * One page of a paginated list (resources/list, resources/templates/list, prompts/list): the
 * items that parse, how many did not, the `nextCursor` to ask for the next page with, and the
 * caching hints 2026-07-28 puts at the top level of the result (`ttlMs`, `cacheScope`), shown as
 * sent so an old server's missing hints stay visible as missing.
 */

/** What a list page needs of a session: its tracked `request`, so the page lands on the timeline. */
export type Requester = (method: string, params?: Record<string, unknown>, options?: RequestOptions) => Promise<RequestOutcome>;

/** The caching hints of a result, when it carries them. */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: string;
}

export interface ListPage<T> {
  outcome: RequestOutcome;
  items: T[];
  /** Entries that did not parse (missing name, uri...): counted, not shown. */
  skipped: number;
  nextCursor?: string;
  cache: CacheHints;
}

/** The caching hints of a result, as sent (a non-integer ttlMs or unknown scope is dropped). */
export function cacheHintsOf(result: Record<string, unknown>): CacheHints {
  const ttl = z.number().int().safeParse(result.ttlMs);
  const scope = z.string().safeParse(result.cacheScope);
  return { ...(ttl.success ? { ttlMs: ttl.data } : {}), ...(scope.success ? { cacheScope: scope.data } : {}) };
}

/** Ask for one page of `method`, whose result holds its items under `key`. */
export async function listPage<T>(
  request: Requester,
  method: string,
  key: string,
  schema: z.ZodType<T>,
  cursor?: string,
  options?: RequestOptions,
): Promise<ListPage<T>> {
  const outcome = await request(method, cursor ? { cursor } : undefined, options);
  if (outcome.type !== 'complete') return { outcome, items: [], skipped: 0, cache: {} };
  const raw = outcome.result[key];
  if (!Array.isArray(raw))
    return { outcome: { type: 'invalid', reason: `${method} result has no ${key} array`, result: outcome.result }, items: [], skipped: 0, cache: {} };
  const items: T[] = [];
  // In slices that yield: a page of thousands of entries parsed with zod in one go is a long task.
  await inSlices(raw, (chunk) => {
    for (const entry of chunk) {
      const parsed = schema.safeParse(entry);
      if (parsed.success) items.push(parsed.data);
    }
  });
  const next = outcome.result.nextCursor;
  return {
    outcome,
    items,
    skipped: raw.length - items.length,
    ...(typeof next === 'string' && next ? { nextCursor: next } : {}),
    cache: cacheHintsOf(outcome.result),
  };
}

/** Pages followed before stopping (a server whose cursors never end); "Load more" goes on from there. */
const MAX_LIST_PAGES = 1000;

/** A whole list so far: every item of the pages read, in one array that only grows. */
export interface ListSoFar<T> {
  /** Appended to in place as pages arrive (never copied: 100,000 items stay one array). */
  items: T[];
  skipped: number;
  pages: number;
  cache: CacheHints;
  /** Set when the list stopped before its end (page cap) or failed on a page: where to go on from. */
  nextCursor?: string;
  /** The last page's outcome (a failure stops the list, the items before it are kept). */
  outcome: RequestOutcome;
  /** Whether more pages are being asked for. */
  loading: boolean;
}

interface FollowOptions<T> {
  /** Go on from this cursor, appending to `into` (Load more after the cap). */
  cursor?: string;
  into?: ListSoFar<T>;
  maxPages?: number;
  /** Told after each page (the same `items` array each time, longer). */
  onPage?: (list: ListSoFar<T>) => void;
  /** Stop asking when this turns false (a newer listing or connection took over). */
  current?: () => boolean;
  options?: RequestOptions;
}

/**
 * Every page of a list, following `nextCursor` (as the tools list is followed): each page parsed
 * in slices that yield, the items appended to one array, the caller told after each page so a
 * long list shows as it arrives.
 */
export async function followPages<T>(load: (cursor?: string) => Promise<ListPage<T>>, o: FollowOptions<T> = {}): Promise<ListSoFar<T>> {
  const list: ListSoFar<T> = o.into ?? { items: [], skipped: 0, pages: 0, cache: {}, outcome: { type: 'complete', result: {} }, loading: true };
  let cursor = o.cursor;
  const max = o.maxPages ?? MAX_LIST_PAGES;
  for (let n = 0; n < max; n++) {
    const page = await load(cursor);
    if (o.current && !o.current()) return list;
    list.outcome = page.outcome;
    if (page.outcome.type !== 'complete') break;
    for (const item of page.items) list.items.push(item);
    list.skipped += page.skipped;
    list.pages++;
    list.cache = page.cache;
    cursor = page.nextCursor;
    if (!cursor) break;
    list.nextCursor = cursor;
    o.onPage?.({ ...list });
    await yieldToEventLoop();
  }
  // Where to go on from: the page after the cap, or the page that failed (none at the list's end).
  if (cursor) list.nextCursor = cursor;
  else delete list.nextCursor;
  list.loading = false;
  o.onPage?.({ ...list });
  return list;
}
