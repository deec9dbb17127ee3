import http from 'node:http';

/**
 * The loopback redirect listener of `--auth` (MCP security considerations: a `localhost`
 * redirect URI is allowed; RFC 8252 §7.3): one node:http server on 127.0.0.1 and a free port,
 * answering `/callback`. It serves nothing else and lives until the command closes it, because
 * one command may authorize more than once (a step-up after 403 insufficient_scope asks again
 * with the union of scopes, to the same redirect URI). Each wait takes the next redirect, and
 * is bounded by the deadline.
 */

export interface Loopback {
  redirectUri: string;
  /** Resolves with the full callback URL the browser is sent to next. */
  waitForCallback(): Promise<string>;
  close(): void;
}

const PAGE = '<!doctype html><meta charset="utf-8"><title>Loupe</title><p>Authorization received. You can close this tab and return to the terminal.</p>';

interface Waiter {
  resolve: (url: string) => void;
  timer: NodeJS.Timeout;
}

/** Start the listener; `timeoutMs` bounds each wait for a redirect. */
export function startLoopback(timeoutMs: number): Promise<Loopback> {
  let waiter: Waiter | undefined;
  // A redirect that arrives before anyone waits (a fast browser) is kept for the next wait.
  let early: string | undefined;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(PAGE);
    const address = server.address();
    const port = address && typeof address === 'object' ? address.port : 0;
    const full = `http://127.0.0.1:${port}${req.url ?? '/callback'}`;
    const w = waiter;
    waiter = undefined;
    if (w) {
      clearTimeout(w.timer);
      w.resolve(full);
    } else early = full;
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = address && typeof address === 'object' ? address.port : 0;
      resolve({
        redirectUri: `http://127.0.0.1:${port}/callback`,
        waitForCallback() {
          if (early !== undefined) {
            const url = early;
            early = undefined;
            return Promise.resolve(url);
          }
          return new Promise<string>((done, fail) => {
            const timer = setTimeout(() => {
              waiter = undefined;
              fail(new Error(`no authorization redirect within ${timeoutMs} ms`));
            }, timeoutMs);
            waiter = { resolve: done, timer };
          });
        },
        close() {
          if (waiter) clearTimeout(waiter.timer);
          waiter = undefined;
          server.close();
          server.closeAllConnections();
        },
      });
    });
  });
}
