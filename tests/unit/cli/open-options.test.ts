import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserCommand } from '../../../lib/cli/browser';
import { OpenUsageError, planOpen } from '../../../lib/cli/open-options';

/** `mcp-loupe [open]`: its flags and environment, checked before anything starts, and when it opens a browser. */
describe('mcp-loupe open: options', () => {
  const plan = (flags: Parameters<typeof planOpen>[0], command: string[] = [], env: NodeJS.ProcessEnv = {}) => planOpen(flags, command, env);
  const mistake = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      expect(e).toBeInstanceOf(OpenUsageError);
      return (e as Error).message;
    }
    throw new Error('expected a usage error');
  };

  it('listens on 127.0.0.1, port 3000 or the next free one, data in ./.loupe, by default', () => {
    expect(plan({})).toEqual({ host: '127.0.0.1', port: undefined, allowedHosts: [], dataDir: path.resolve('.loupe'), store: 'auto', scenarioFiles: [] });
  });

  it('reads the same environment as npm start, flags first', () => {
    const env = { HOST: 'localhost', PORT: '4100', LOUPE_DATA_DIR: '/tmp/d', LOUPE_ALLOWED_HOSTS: 'a.test, b.test' };
    expect(plan({}, [], env)).toMatchObject({ host: 'localhost', port: 4100, dataDir: '/tmp/d', allowedHosts: ['a.test', 'b.test'] });
    // An empty variable is an unset one (`HOST= npx mcp-loupe`).
    expect(plan({}, [], { HOST: '', PORT: '', LOUPE_DATA_DIR: '' })).toMatchObject({ host: '127.0.0.1', port: undefined, dataDir: path.resolve('.loupe') });
    expect(plan({ port: '0', host: '::1', dataDir: 'x', allowedHost: ['c.test'] }, [], env)).toMatchObject({
      host: '::1',
      port: 0,
      dataDir: path.resolve('x'),
      allowedHosts: ['c.test', 'a.test', 'b.test'],
    });
  });

  it('refuses a non-loopback interface without --allow-remote, and bad ports', () => {
    expect(mistake(() => plan({ host: '0.0.0.0' }))).toMatch(/^refusing to listen on 0\.0\.0\.0: .*--allow-remote/);
    expect(mistake(() => plan({}, [], { HOST: '192.168.1.9' }))).toMatch(/192\.168\.1\.9 \(from HOST\)/);
    expect(plan({ host: '0.0.0.0', allowRemote: true }).host).toBe('0.0.0.0');
    expect(plan({}, [], { HOST: '0.0.0.0', LOUPE_ALLOW_REMOTE: '1' }).host).toBe('0.0.0.0');
    expect(mistake(() => plan({ port: 'abc' }))).toMatch(/--port must be an integer from 0 to 65535/);
    expect(mistake(() => plan({}, [], { PORT: '70000' }))).toMatch(/^PORT must be/);
    // Ports the fetch standard blocks: the browser would not open the inspector there at all.
    expect(mistake(() => plan({ port: '6000' }))).toBe(
      "--port 6000: port 6000 is one that browsers (ERR_UNSAFE_PORT) and fetch-based clients (Node's fetch, the MCP SDKs' HTTP transports) refuse to reach; pick another",
    );
    expect(mistake(() => plan({}, [], { PORT: '5060' }))).toMatch(/^PORT 5060: port 5060 is one that browsers/);
    expect(plan({ port: '6001' }).port).toBe(6001);
    expect(mistake(() => plan({ store: 'disk' }))).toMatch(/--store must be memory or sqlite/);
    expect(plan({}, [], { LOUPE_STORE: 'memory' }).store).toBe('memory');
  });

  it('turns --url and --header into a proxied launch whose link names the header but not its value', () => {
    const p = plan({ url: 'http://127.0.0.1:9/mcp', header: ['X-Test: secret-value', 'Authorization:Bearer t'], era: 'modern' });
    expect(p.launch).toEqual({
      transport: 'proxy',
      url: 'http://127.0.0.1:9/mcp',
      era: 'modern',
      headers: { 'X-Test': 'secret-value', Authorization: 'Bearer t' },
    });
    expect(p.link).toEqual({ transport: 'proxy', url: 'http://127.0.0.1:9/mcp', era: 'modern', headerNames: ['X-Test', 'Authorization'] });
  });

  it('turns the words after -- into a stdio launch', () => {
    const p = plan({}, ['node', 'server.js', '--flag']);
    expect(p.launch).toEqual({ transport: 'stdio', command: 'node', args: ['server.js', '--flag'], era: 'auto' });
    expect(p.link).toEqual(p.launch);
  });

  it('says what is wrong with a connection on the command line', () => {
    expect(mistake(() => plan({ url: 'ftp://x' }))).toMatch(/--url must be http or https/);
    expect(mistake(() => plan({ url: 'not a url' }))).toMatch(/is not a URL/);
    expect(mistake(() => plan({ url: 'http://a/mcp' }, ['node']))).toMatch(/either --url or a command/);
    expect(mistake(() => plan({ header: ['X: y'] }))).toMatch(/--header goes with --url/);
    expect(mistake(() => plan({ url: 'http://a/mcp', header: ['no colon'] }))).toMatch(/"Name: value"/);
    expect(mistake(() => plan({ era: 'future' }))).toMatch(/--era must be modern, legacy or auto/);
  });
});

describe('mcp-loupe open: the browser', () => {
  const url = 'http://127.0.0.1:3000/?token=t&transport=proxy&url=http%3A%2F%2Fa%2Fmcp';

  it('uses each system’s opener with the URL as one argument', () => {
    expect(browserCommand(url, { DISPLAY: ':0' }, 'linux')).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserCommand(url, { WAYLAND_DISPLAY: 'wayland-0' }, 'freebsd')).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserCommand(url, {}, 'darwin')).toEqual({ command: 'open', args: [url] });
    expect(browserCommand(url, {}, 'win32')).toEqual({ command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] });
  });

  it('never opens one in CI or on Linux without a display', () => {
    expect(browserCommand(url, { CI: 'true', DISPLAY: ':0' }, 'linux')).toEqual({ skip: 'CI is set' });
    expect(browserCommand(url, { CI: '1' }, 'darwin')).toEqual({ skip: 'CI is set' });
    expect(browserCommand(url, {}, 'linux')).toMatchObject({ skip: expect.stringContaining('no display') });
    expect(browserCommand(url, { CI: 'false', DISPLAY: ':0' }, 'linux')).toEqual({ command: 'xdg-open', args: [url] });
  });
});
