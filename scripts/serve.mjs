// The server behind `npm start`: `mcp-loupe open --no-open` from this checkout's CLI bundle
// (lib/cli/open-command.ts), so `npm start` and `npx mcp-loupe` run the same code and print the
// same lines. One node:http server (lib/server/app-server.ts) serves Loupe's routes (/mcp/**,
// /api/**, /healthz) and the pages from Next's static export in dist/app; Next is not loaded.
// Reads HOST, PORT, LOUPE_DATA_DIR, LOUPE_STORE, LOUPE_TOKEN, LOUPE_ALLOW_REMOTE and LOUPE_ALLOWED_HOSTS, and
// takes the command's flags (`--url`, `--scenario`, `-- command`...); `--open` opens the browser.
// Expects dist/cli.mjs and dist/app (npm start builds both).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli.mjs');
const args = process.argv.slice(2);
const end = args.indexOf('--') < 0 ? args.length : args.indexOf('--');
const own = args.slice(0, end);
const open = own.includes('--open');
process.argv = [process.argv[0], cli, 'open', ...(open ? [] : ['--no-open']), ...own.filter((a) => a !== '--open'), ...args.slice(end)];
await import(pathToFileURL(cli).href);
