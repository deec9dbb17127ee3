import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

/**
 * The pages as files: Next's static export (`next build` writes it to dist/app) served from disk
 * by the app server, so no Next code runs in production. The export's file list is read once, at
 * start: a request can only ever name one of those files, which rules out path traversal before
 * any path is joined (the join is checked once more anyway).
 *
 * A dynamic route (`app/scenarios/[id]`, `app/replay/[id]`) is exported once, under the
 * placeholder id `_`; every other id gets the placeholder's files, and the page reads the real id
 * from the URL in the browser. Its payloads follow: `/scenarios/demo.txt` (a client navigation)
 * and `/scenarios/demo/__next.*.txt` (a prefetch) are answered from `scenarios/_`.
 */

/** The id a dynamic route is exported under (its `generateStaticParams`). */
const PLACEHOLDER_ID = '_';

/** Where a request path leads: a file of the export (relative, `/`-separated), nowhere, or a refused path. */
type Resolution = { kind: 'file'; file: string } | { kind: 'not-found' } | { kind: 'bad-path' };

/** The exported pages of one folder. */
interface StaticPages {
  resolve(pathname: string): Resolution;
  /** Answer a GET or HEAD (no gate: the app server puts the page gate in front). */
  handle(req: IncomingMessage, res: ServerResponse): void;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  // The RSC payloads: in an export, Next's router accepts text/plain for them.
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** The Content-Type of an exported file, by its extension. */
function contentTypeOf(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The Cache-Control of an answer: hashed build assets forever, pages never, the rest revalidated. */
function cacheControl(file: string, status: number): string {
  if (status === 200 && file.startsWith('_next/static/')) return 'public, max-age=31536000, immutable';
  return file.endsWith('.html') ? 'no-store' : 'no-cache';
}

/** Every regular file under `root`, as `/`-separated relative paths (symbolic links are not followed). */
function listFiles(root: string): Set<string> {
  const files = new Set<string>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), rel);
      else if (entry.isFile()) files.add(rel);
    }
  };
  walk(root, '');
  return files;
}

/**
 * The decoded segments of a request path, or undefined when it is malformed or tries something:
 * `..` or `.`, an encoded or back slash (a separator hidden in a segment), a NUL.
 */
function segmentsOf(pathname: string): string[] | undefined {
  if (/%2f|%5c|%00|\\/i.test(pathname)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const parts = decoded.split('/').filter(Boolean);
  return parts.some((p) => p === '.' || p === '..') ? undefined : parts;
}

/** Serve the export in `dir`; throws when it holds no export (no index.html). */
export function createStaticPages(dir: string): StaticPages {
  const root = path.resolve(dir);
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    throw new Error(`No exported pages in ${root} (index.html is missing): run \`npm run build\`, whose \`next build\` writes them there`);
  }
  const files = listFiles(root);
  // The folders of the dynamic routes: those holding a placeholder page.
  const dynamicRoutes = new Set([...files].filter((f) => path.posix.basename(f) === `${PLACEHOLDER_ID}.html`).map((f) => path.posix.dirname(f)));

  function resolve(pathname: string): Resolution {
    const parts = segmentsOf(pathname);
    if (!parts) return { kind: 'bad-path' };
    const rel = parts.join('/');
    for (const candidate of rel === '' ? ['index.html'] : [rel, `${rel}.html`]) if (files.has(candidate)) return { kind: 'file', file: candidate };
    for (let i = 1; i < parts.length; i++) {
      const route = parts.slice(0, i).join('/');
      if (!dynamicRoutes.has(route)) continue;
      const id = parts[i]!;
      const rest = parts.slice(i + 1);
      const placeholder = rest.length ? `${route}/${PLACEHOLDER_ID}/${rest.join('/')}` : `${route}/${PLACEHOLDER_ID}${id.endsWith('.txt') ? '.txt' : '.html'}`;
      if (files.has(placeholder)) return { kind: 'file', file: placeholder };
    }
    return { kind: 'not-found' };
  }

  function send(res: ServerResponse, status: number, file: string): void {
    const abs = path.join(root, file);
    if (!abs.startsWith(root + path.sep)) return void res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request path');
    fs.stat(abs, (statError, stat) => {
      if (statError || !stat.isFile()) return void res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      res.writeHead(status, {
        'Content-Type': contentTypeOf(file),
        'Content-Length': String(stat.size),
        'Cache-Control': cacheControl(file, status),
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
      });
      if (res.req.method === 'HEAD') return void res.end();
      const stream = fs.createReadStream(abs);
      stream.on('error', () => res.destroy());
      res.on('close', () => stream.destroy());
      stream.pipe(res);
    });
  }

  return {
    resolve,
    handle(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method Not Allowed');
        return;
      }
      const found = resolve((req.url ?? '/').split('?')[0] ?? '/');
      if (found.kind === 'bad-path') return void res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request path');
      if (found.kind === 'file') return send(res, 200, found.file);
      if (files.has('404.html')) return send(res, 404, '404.html');
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
    },
  };
}
