import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHeadlessSession } from '../../../lib/client/headless';
import { explainConnectFailure, urlProblem } from '../../../lib/state/connection-errors';

const page = 'http://127.0.0.1:4000';

describe('a failed connect explained', () => {
  it('direct to another origin: names CORS as a possible cause and the proxy as the fix, never a bare "Failed to fetch"', () => {
    const p = explainConnectFailure(
      { url: 'http://127.0.0.1:5000/mcp', mode: 'direct', pageOrigin: page },
      { type: 'failure', reason: 'network', message: 'Failed to reach http://127.0.0.1:5000/mcp: Failed to fetch' },
    );
    expect(p.cause).toMatch(/does not allow this page's origin \(CORS\)/);
    expect(p.fix).toMatch(/Auto.*Via Loupe proxy/);
  });

  it('through the proxy to nothing: says nothing answered and to start the server', () => {
    const p = explainConnectFailure(
      { url: 'http://127.0.0.1:5000/mcp', mode: 'auto', pageOrigin: page },
      {
        type: 'failure',
        reason: 'proxy',
        message: 'Proxy refused the request (unreachable): Failed to reach http://127.0.0.1:5000: connect ECONNREFUSED 127.0.0.1:5000',
      },
    );
    expect(p.cause).toBe('Nothing answered at http://127.0.0.1:5000/mcp: connect ECONNREFUSED 127.0.0.1:5000.');
    expect(p.fix).toMatch(/Start the server/);
  });

  it('a 404 points at the path, a 401 at the token', () => {
    expect(
      explainConnectFailure(
        { url: 'http://h/x', mode: 'proxy', pageOrigin: page },
        { type: 'invalid', reason: 'HTTP 404 without a JSON-RPC response', httpStatus: 404 },
      ).fix,
    ).toMatch(/\/mcp/);
    expect(
      explainConnectFailure({ url: 'http://h/mcp', mode: 'proxy', pageOrigin: page }, { type: 'failure', reason: 'auth', message: 'authorization required' })
        .fix,
    ).toMatch(/bearer token/);
  });
});

describe('a connect whose answer broke off', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    // Like a server that crashes mid-answer: 200 text/event-stream, half an event, then the socket is destroyed.
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/refuse') {
          req.socket.destroy();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: message\ndata: {"jsonrpc":"2.0",');
        setImmediate(() => req.socket.destroy());
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const connect = async (url: string) => {
    const out = await createHeadlessSession({ url, era: 'modern', timeoutMs: 10_000 }).discover();
    return explainConnectFailure({ url, mode: 'auto', pageOrigin: page }, out);
  };

  it('says the server answered and its stream ended before the answer, not that nothing answered', async () => {
    const p = await connect(`${base}/close`);
    expect(p.cause).toMatch(new RegExp(`^${base}/close answered, but the server's stream ended before its answer \\(.+\\)\\.$`));
    expect(p.cause).not.toMatch(/Nothing answered/);
    expect(p.fix).toMatch(/dropped the connection mid-answer/);
    expect(p.fix).not.toMatch(/Start the server/);
  });

  it('still says nothing answered when the connection is refused or reset before any answer', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const refused = await connect(`http://127.0.0.1:${port}/mcp`);
    expect(refused.cause).toMatch(/^Nothing answered at /);
    expect(refused.fix).toMatch(/Start the server/);
    expect((await connect(`${base}/refuse`)).cause).toMatch(/^Nothing answered at /);
  });

  it('names a port fetch never connects to, even with a server listening there, instead of "nothing answered"', async () => {
    const blocked = http.createServer((_req, res) => res.end('{}'));
    // Something else on the machine may hold the port: the answer is the same, as fetch never connects.
    await new Promise<void>((r) => blocked.once('error', () => r()).listen(6667, '127.0.0.1', () => r()));
    try {
      const p = await connect('http://127.0.0.1:6667/mcp');
      expect(p.cause).toMatch(/^Could not connect to http:\/\/127\.0\.0\.1:6667\/mcp: port 6667 is one that browsers \(ERR_UNSAFE_PORT\)/);
      expect(p.fix).toMatch(/another port/);
      // Through the proxy, which fails the same way (undici's "bad port").
      const proxied = explainConnectFailure(
        { url: 'http://127.0.0.1:6667/mcp', mode: 'proxy', pageOrigin: page },
        { type: 'failure', reason: 'proxy', message: 'Proxy refused the request (unreachable): Failed to reach http://127.0.0.1:6667: bad port' },
      );
      expect(proxied.cause).toMatch(/port 6667 is one that browsers/);
    } finally {
      if (blocked.listening) await new Promise<void>((r) => blocked.close(() => r()));
    }
  });
});

describe('a URL the form cannot connect to, refused before anything is sent', () => {
  it('takes http(s) URLs and paths on this Loupe', () => {
    for (const ok of ['http://127.0.0.1:3001/mcp', 'https://example.com/mcp', '/mcp', ' /mcp ']) expect(urlProblem(ok)).toBeUndefined();
  });

  it('names a word, a host without its scheme and another scheme, each with what to type', () => {
    expect(urlProblem('notaurl')).toEqual({
      cause: 'Failed to connect: “notaurl” is not a URL.',
      fix: 'Did you mean /notaurl on this Loupe, or http://notaurl? Type a full URL or a path (e.g. http://127.0.0.1:3001/mcp, or a path on this Loupe such as /mcp).',
    });
    expect(urlProblem('mcp/demo')?.fix).toMatch(/^Did you mean \/mcp\/demo on this Loupe, or http:\/\/mcp\/demo\?/);
    expect(urlProblem('[::1]:3001/mcp')?.fix).toMatch(/^Did you mean http:\/\/\[::1\]:3001\/mcp\?/);
    expect(urlProblem('example.com/mcp')?.fix).toMatch(/^Did you mean http:\/\/example\.com\/mcp\?/);
    // Parsed as a host, not a path: refused like "//host".
    expect(urlProblem('/\\evil.test/mcp')?.cause).toBe('Failed to connect: “/\\evil.test/mcp” is not a URL.');
    expect(urlProblem('localhost:3001/mcp')?.fix).toMatch(/^Did you mean http:\/\/localhost:3001\/mcp\?/);
    expect(urlProblem('ws://127.0.0.1:3001/mcp')?.cause).toBe('Failed to connect: ws: URLs are not MCP over HTTP.');
    expect(urlProblem('javascript:alert(1)')?.cause).toBe('Failed to connect: javascript: URLs are not MCP over HTTP.');
    expect(urlProblem('//evil.test/mcp')?.cause).toBe('Failed to connect: “//evil.test/mcp” is not a URL.');
    expect(urlProblem('   ')?.cause).toBe('Failed to connect: type the server’s URL.');
  });
});
