import { describe, expect, it } from 'vitest';
import { loadRecent, rememberRecent } from '../../../lib/state/connection-recent';

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), raw: m };
}

describe('recent connections', () => {
  it('keeps the newest first, once each, at most eight, and stores header names but no values', () => {
    const store = memory();
    for (let i = 0; i < 10; i++) rememberRecent({ transport: 'proxy', url: `http://h${i}/mcp`, era: 'auto', headerNames: ['Authorization'] }, store);
    rememberRecent({ transport: 'proxy', url: 'http://h5/mcp', era: 'auto', headerNames: ['Authorization'] }, store);
    const list = loadRecent(store);
    expect(list.map((r) => (r.link.transport === 'stdio' ? '' : r.link.url))).toEqual([5, 9, 8, 7, 6, 4, 3, 2].map((i) => `http://h${i}/mcp`));
    expect([...store.raw.values()].join()).toContain('header=Authorization');
    expect([...store.raw.values()].join()).not.toContain('Bearer');
  });

  it('drops what it cannot read', () => {
    const store = memory();
    store.setItem('loupe:recent-connections', '["transport=ftp&url=x", 7, "transport=stdio&command=node&arg=s.js"]');
    expect(loadRecent(store).map((r) => r.link.transport)).toEqual(['stdio']);
    store.setItem('loupe:recent-connections', 'not json');
    expect(loadRecent(store)).toEqual([]);
  });
});
