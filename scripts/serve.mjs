// The app server behind `npm start`: one node:http server on HOST:PORT where Loupe's own routes
// (/mcp/**, /api/**: the MCP endpoints, the proxy, the control API) are served directly by the
// mock router, as `mcp-loupe mock` serves them, and everything else (pages, assets) by Next in
// production mode. Expects `next build` and dist/app-server.mjs (npm start makes both).
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import next from 'next';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);

const { createAppRoutes } = await import(pathToFileURL(path.join(root, 'dist', 'app-server.mjs')).href);
const loupe = createAppRoutes();
// Loupe's routes answer at once; pages wait until Next is prepared (it needs the bound port).
let nextHandle;
let nextReadyResolve;
const nextReady = new Promise((resolve) => (nextReadyResolve = resolve));
const server = http.createServer((req, res) => {
  if (loupe(req, res)) return;
  const serve = () =>
    nextHandle(req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`Internal error: ${e?.message ?? e}`);
    });
  if (nextHandle) serve();
  else void nextReady.then(serve);
});
server.keepAliveTimeout = 5_000;
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(port, host, resolve);
});
const bound = server.address().port;
const app = next({ dev: false, dir: root, hostname: host, port: bound });
await app.prepare();
nextHandle = app.getRequestHandler();
nextReadyResolve();
process.stdout.write(`Ready on http://${host.includes(':') ? `[${host}]` : host}:${bound}\n`);

const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
