import http from 'node:http';

/**
 * The loopback redirect listener of `--auth` (MCP security considerations: a `localhost`
 * redirect URI is allowed; RFC 8252 §7.3): one node:http server on 127.0.0.1 and a free port,
 * answering `/callback` once. It serves nothing else and stops after the redirect or the
 * deadline.
 */

export interface Loopback {
  redirectUri: string;
  /** Resolves with the full callback URL the browser was sent to. */
  waitForCallback(): Promise<string>;
  close(): void;
}

const PAGE = '<!doctype html><meta charset="utf-8"><title>Loupe</title><p>Authorization received. You can close this tab and return to the terminal.</p>';

/** Start the listener; `timeoutMs` bounds the wait for the redirect. */
export function startLoopback(timeoutMs: number): Promise<Loopback> {
  let resolveCallback: (url: string) => void = () => {};
  let rejectCallback: (e: Error) => void = () => {};
  const callback = new Promise<string>((resolve, reject) => {
    resolveCallback = resolve;
    rejectCallback = reject;
  });
  // The flow may fail before anyone waits; an unobserved rejection must not end the process.
  callback.catch(() => {});
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(PAGE);
    const address = server.address();
    const port = address && typeof address === 'object' ? address.port : 0;
    resolveCallback(`http://127.0.0.1:${port}${req.url ?? '/callback'}`);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = address && typeof address === 'object' ? address.port : 0;
      let timer: NodeJS.Timeout | undefined;
      const close = () => {
        if (timer) clearTimeout(timer);
        server.close();
        server.closeAllConnections();
      };
      resolve({
        redirectUri: `http://127.0.0.1:${port}/callback`,
        waitForCallback() {
          timer ??= setTimeout(() => rejectCallback(new Error(`no authorization redirect within ${timeoutMs} ms`)), timeoutMs);
          return callback.finally(close);
        },
        close,
      });
    });
  });
}
