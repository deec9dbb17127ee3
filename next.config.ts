import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { NextConfig } from 'next';
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from 'next/constants';

/**
 * Next.js configuration for Loupe's pages. Next only builds them: `next build` writes a static
 * export to dist/app, and Loupe's own app server (lib/server/app-server.ts) serves it with the
 * MCP endpoints and the control API, so nothing of Next runs in production. `npm run dev`
 * (scripts/dev.mjs) puts Next's dev server behind the same app server.
 */
const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
};

/** Where `next build` writes the exported pages (the app server's `pagesDir`). */
const PAGES_DIR = 'dist/app';

/**
 * A plain `next build` or `next dev` on a fresh clone first generates the bundled app views the
 * built-in scenarios import (scripts/build-apps.mjs: not committed, rewritten only on change).
 * Only the production build exports: in dev, Next renders any `/scenarios/<id>` on request,
 * where an export would accept only the ids of `generateStaticParams`.
 */
export default function config(phase: string): NextConfig {
  if (phase === PHASE_PRODUCTION_BUILD || phase === PHASE_DEVELOPMENT_SERVER) {
    const r = spawnSync(process.execPath, [path.join(process.cwd(), 'scripts', 'build-apps.mjs')], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`Generating the app views failed (scripts/build-apps.mjs exited ${r.status ?? r.signal})`);
  }
  if (phase === PHASE_PRODUCTION_BUILD) return { ...nextConfig, output: 'export', distDir: PAGES_DIR };
  return nextConfig;
}
