// `npm run dev`: the app server (lib/server/app-server.ts, from the dist/app-server.mjs bundle) with
// Next's dev server for the pages, so they hot-reload while /mcp/**, /api/** and /healthz are
// served exactly as in production, behind the same page gate. Changes under lib/server need a
// restart (the server runs from the bundle). HOST, PORT, LOUPE_DATA_DIR, LOUPE_STORE, LOUPE_TOKEN
// and LOUPE_ALLOWED_HOSTS as for `npm start`.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import next from 'next';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { startAppServer } = await import(pathToFileURL(path.join(root, 'dist', 'app-server.mjs')).href);
const host = process.env.HOST ?? '127.0.0.1';

let resolveHandler;
const nextHandler = new Promise((resolve) => (resolveHandler = resolve));
// Next attaches its hot-reload socket to the "server" it is given: this relay, which receives only
// the upgrades the app server let through (Host checked).
const upgrades = new EventEmitter();
const app = await startAppServer({
  host,
  port: Number(process.env.PORT ?? 3000),
  dataDir: process.env.LOUPE_DATA_DIR ?? path.resolve('.loupe'),
  store: process.env.LOUPE_STORE,
  token: process.env.LOUPE_TOKEN || undefined,
  reusableLink: !!process.env.LOUPE_TOKEN,
  allowedHosts: (process.env.LOUPE_ALLOWED_HOSTS ?? '').split(','),
  // Pages wait until Next is prepared; Loupe's own routes answer at once.
  pages: (req, res) =>
    void nextHandler
      .then((handle) => handle(req, res))
      .catch((e) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`Internal error: ${e?.message ?? e}`);
      }),
  upgrade: (req, socket, head) => upgrades.emit('upgrade', req, socket, head),
});
const nextApp = next({ dev: true, dir: root, hostname: host, port: app.port, httpServer: upgrades });
await nextApp.prepare();
resolveHandler(nextApp.getRequestHandler());
process.stdout.write(`Ready on ${app.url}\nLoupe (dev): open ${app.url}/?token=${app.link()}\n`);

const stop = () => {
  void Promise.allSettled([app.close(), nextApp.close()]).then(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
