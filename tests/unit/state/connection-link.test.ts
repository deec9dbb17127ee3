import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../../../lib/client/stdio-proxy-transport';
import type { LaunchConnection } from '../../../lib/protocol/launch-link';
import { configOfLink, joinCommandLine, linkOfConfig } from '../../../lib/state/connection-link';
import type { ConnectionConfig } from '../../../lib/state/connection-slice';

/** Between the connection bar and the page URL: what a config shows there, and what a link connects to. */
describe('connection links', () => {
  const base: ConnectionConfig = { url: '/mcp', mode: 'direct', headers: [], bearer: '', era: 'auto' };

  it('gives the demo a bare URL, and names anything else', () => {
    expect(linkOfConfig(base)).toBeUndefined();
    expect(linkOfConfig({ ...base, era: 'legacy' })).toEqual({ transport: 'direct', url: '/mcp', era: 'legacy', headerNames: [] });
    expect(linkOfConfig({ ...base, apps: false })).toMatchObject({ apps: false });
  });

  it('names header keys (the bearer as Authorization) and drops every value', () => {
    const link = linkOfConfig({
      ...base,
      url: 'https://api.test/mcp',
      mode: 'proxy',
      bearer: 'tok-123',
      headers: [
        { name: 'X-Key', value: 'k-456', enabled: true },
        { name: 'X-Off', value: 'off-789', enabled: false },
      ],
    });
    expect(link).toEqual({ transport: 'proxy', url: 'https://api.test/mcp', era: 'auto', headerNames: ['X-Key', 'X-Off', 'Authorization'] });
    expect(JSON.stringify(link)).not.toMatch(/tok-123|k-456|off-789/);
  });

  it('fills header values from the launch only when the link points where the launch does', () => {
    const launch: LaunchConnection = { transport: 'proxy', url: 'https://api.test/mcp', era: 'auto', headers: { 'X-Key': 'k-456' } };
    const link = { transport: 'proxy' as const, url: 'https://api.test/mcp', era: 'auto' as const, headerNames: ['X-Key', 'X-Other'] };
    expect(configOfLink(link, launch)).toEqual({
      fromLaunch: true,
      config: {
        url: 'https://api.test/mcp',
        mode: 'proxy',
        era: 'auto',
        bearer: '',
        apps: true,
        headers: [
          { name: 'X-Key', value: 'k-456', enabled: true },
          { name: 'X-Other', value: '', enabled: false },
        ],
      },
    });
    // Elsewhere (another URL a link could name), the launch's values are never sent.
    const elsewhere = configOfLink({ ...link, url: 'https://evil.test/mcp' }, launch);
    expect(elsewhere.fromLaunch).toBe(false);
    expect(elsewhere.config.headers).toEqual([
      { name: 'X-Key', value: '', enabled: false },
      { name: 'X-Other', value: '', enabled: false },
    ]);
    expect(configOfLink(link, null).config.headers.every((h) => h.value === '' && !h.enabled)).toBe(true);
  });

  it('turns a stdio link into a command line that splits back into the same argv', () => {
    const { config, fromLaunch } = configOfLink({ transport: 'stdio', command: 'node', args: ['my server.js', 'it\'s "quoted"', ''], era: 'auto' }, null);
    expect(fromLaunch).toBe(false);
    expect(config.mode).toBe('stdio');
    expect(splitCommandLine(config.url)).toEqual(['node', 'my server.js', 'it\'s "quoted"', '']);
    expect(linkOfConfig(config)).toEqual({ transport: 'stdio', command: 'node', args: ['my server.js', 'it\'s "quoted"', ''], era: 'auto' });
  });

  it('joins any argv into a command line that splits back into it', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 6 }), (argv) => {
        expect(splitCommandLine(joinCommandLine(argv))).toEqual(argv);
      }),
    );
    expect(joinCommandLine(['npx', '-y', '@scope/server@1.2.3', '--port=8080'])).toBe('npx -y @scope/server@1.2.3 --port=8080');
  });
});
