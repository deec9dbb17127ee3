import { describe, expect, it } from 'vitest';
import { launchLink, linkQuery, parseLinkQuery, sameTarget, type ConnectionLink, type LaunchConnection } from '../../../lib/protocol/launch-link';

/** The page URL's connection: it round-trips, it names header keys and never their values. */
describe('launch links', () => {
  const proxied: LaunchConnection = { transport: 'proxy', url: 'http://host.test:8080/mcp?x=1&y=2', era: 'auto', headers: { 'X-Test': 'secret-value' } };

  it('names an HTTP connection with its URL, era and header keys, never a header value', () => {
    const query = linkQuery(launchLink(proxied));
    expect(query).toBe('transport=proxy&url=http%3A%2F%2Fhost.test%3A8080%2Fmcp%3Fx%3D1%26y%3D2&era=auto&header=X-Test');
    expect(query).not.toContain('secret');
    expect(parseLinkQuery(`?${query}`)).toEqual({ transport: 'proxy', url: proxied.url, era: 'auto', headerNames: ['X-Test'] });
  });

  it('keeps every argument of a stdio command apart, spaces and quotes included', () => {
    const link: ConnectionLink = { transport: 'stdio', command: 'node', args: ['my server.js', '--name="a b"', '', '--flag'], era: 'modern' };
    const query = linkQuery(link);
    expect(query.startsWith('transport=stdio&command=node&arg=my+server.js&arg=')).toBe(true);
    expect(parseLinkQuery(query)).toEqual(link);
  });

  it('reads apps=0 and reads no connection from a query that names none, or names it badly', () => {
    expect(parseLinkQuery('transport=direct&url=%2Fmcp%2Fx&apps=0')).toEqual({ transport: 'direct', url: '/mcp/x', era: 'auto', headerNames: [], apps: false });
    for (const q of ['', '?', 'foo=bar', 'transport=proxy', 'transport=stdio', 'transport=ftp&url=x', 'transport=proxy&url=http%3A%2F%2Fa&era=future'])
      expect(parseLinkQuery(q), q).toBeUndefined();
  });

  it('matches a link to the launch by transport and URL, or by the whole argv', () => {
    const link = launchLink(proxied);
    expect(sameTarget(link, proxied)).toBe(true);
    expect(sameTarget({ ...link, url: 'http://evil.test/mcp' } as ConnectionLink, proxied)).toBe(false);
    expect(sameTarget({ ...link, transport: 'direct' } as ConnectionLink, proxied)).toBe(false);
    const stdio: LaunchConnection = { transport: 'stdio', command: 'node', args: ['a.js'], era: 'auto' };
    expect(sameTarget(launchLink(stdio), stdio)).toBe(true);
    expect(sameTarget({ transport: 'stdio', command: 'node', args: ['a.js', '--more'], era: 'auto' }, stdio)).toBe(false);
    expect(sameTarget({ transport: 'stdio', command: 'sh', args: ['a.js'], era: 'auto' }, stdio)).toBe(false);
    expect(sameTarget(launchLink(stdio), proxied)).toBe(false);
  });
});
