// The app server behind `npm start`: one node:http server on HOST:PORT serving the whole product
// (lib/server/app-server.ts): Loupe's routes (/mcp/**, /api/**, /healthz) by the mock router, as
// `mcp-loupe mock` serves them, and the pages from Next's static export in dist/app. Next is not
// loaded. Expects dist/app-server.mjs and dist/app (npm start builds both).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { startAppServer } = await import(pathToFileURL(path.join(root, 'dist', 'app-server.mjs')).href);

const app = await startAppServer({
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  dataDir: process.env.LOUPE_DATA_DIR ?? path.resolve('.loupe'),
  store: process.env.LOUPE_STORE,
  token: process.env.LOUPE_TOKEN || undefined,
  allowedHosts: (process.env.LOUPE_ALLOWED_HOSTS ?? '').split(','),
  pagesDir: path.join(root, 'dist', 'app'),
});
// npm start passes the token and prints the URL with it; run alone, this process made one up.
if (!process.env.LOUPE_TOKEN) process.stdout.write(`LOUPE_TOKEN is not set; this process generated one. Open ${app.url}/?token=${app.token}\n`);
process.stdout.write(`Ready on ${app.url}\n`);

const stop = () => {
  void app.close().then(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
