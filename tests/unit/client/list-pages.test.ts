import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { followPages, listPage, type Requester } from '../../../lib/client/list-page';

/**
 * A long paginated list (resources, prompts): every page followed by its cursor into one array
 * that only grows (never copied page after page), malformed entries counted, a failing page
 * stopping the list with the items before it kept and its cursor to go on from, and a cap on
 * the pages of a server whose cursors never end.
 */

const Item = z.looseObject({ name: z.string() });

/** A server of `total` items, `size` a page; `fail` makes the page at that cursor answer an error. */
function server(total: number, size: number, options: { fail?: string; endless?: boolean } = {}) {
  const asked: (string | undefined)[] = [];
  const request: Requester = async (_method, params) => {
    const cursor = params?.cursor as string | undefined;
    asked.push(cursor);
    if (cursor !== undefined && cursor === options.fail) return { type: 'error', error: { code: -32603, message: 'boom' } };
    const from = Number(cursor ?? 0);
    const items = Array.from({ length: Math.min(size, Math.max(0, total - from)) }, (_, i) =>
      i === 0 && from === size ? { bad: true } : { name: `n${from + i}` },
    );
    const next = options.endless || from + size < total ? { nextCursor: String(from + size) } : {};
    return { type: 'complete', result: { items, ...next, ttlMs: 5, cacheScope: 'public' } };
  };
  return { asked, load: (cursor?: string) => listPage(request, 'x/list', 'items', Item, cursor) };
}

describe('followPages', () => {
  it('follows every page into one growing array, telling the caller after each page', async () => {
    const { asked, load } = server(2500, 1000);
    const seen: { count: number; loading: boolean; same: boolean }[] = [];
    let first: unknown;
    const list = await followPages(load, {
      onPage: (l) => {
        first ??= l.items;
        seen.push({ count: l.items.length, loading: l.loading, same: l.items === first });
      },
    });
    expect(asked).toEqual([undefined, '1000', '2000']);
    expect(list.items).toHaveLength(2499); // one malformed entry on the second page
    expect(list.skipped).toBe(1);
    expect(list.items.at(-1)).toEqual({ name: 'n2499' });
    expect(list).toMatchObject({ pages: 3, loading: false, cache: { ttlMs: 5, cacheScope: 'public' } });
    expect(list.nextCursor).toBeUndefined();
    expect(seen.map((s) => [s.count, s.loading])).toEqual([
      [1000, true],
      [1999, true],
      [2499, false],
    ]);
    expect(seen.every((s) => s.same)).toBe(true);
  });

  it('stops at a failing page, keeps what came before, and goes on from that page when asked', async () => {
    const { load } = server(3000, 1000, { fail: '2000' });
    const list = await followPages(load);
    expect(list.outcome.type).toBe('error');
    expect(list.items).toHaveLength(1999);
    expect(list.nextCursor).toBe('2000');
    const ok = server(3000, 1000);
    const more = await followPages(ok.load, { cursor: list.nextCursor, into: list });
    expect(ok.asked).toEqual(['2000']);
    expect(more.items).toHaveLength(2999);
    expect(more.outcome.type).toBe('complete');
    expect(more.nextCursor).toBeUndefined();
  });

  it('stops after the page cap on a server whose cursors never end, leaving the next cursor', async () => {
    const { asked, load } = server(10, 1, { endless: true });
    const list = await followPages(load, { maxPages: 5 });
    expect(asked).toHaveLength(5);
    expect(list.nextCursor).toBe('5');
    expect(list.loading).toBe(false);
  });

  it('stops asking once a newer listing took over', async () => {
    const { asked, load } = server(5000, 1000);
    let current = true;
    await followPages(load, {
      current: () => current,
      onPage: () => {
        current = false;
      },
    });
    expect(asked).toEqual([undefined, '1000']);
  });
});
