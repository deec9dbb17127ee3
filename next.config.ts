import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { NextConfig } from 'next';
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from 'next/constants';

/** Next.js configuration for the Loupe web app. */
const nextConfig: NextConfig = {
  reactStrictMode: true,
  // Native addon: loaded from node_modules at run time, never bundled.
  serverExternalPackages: ['better-sqlite3'],
  poweredByHeader: false,
};

/**
 * A plain `next build` or `next dev` on a fresh clone first generates the bundled app views the
 * built-in scenarios import (scripts/build-apps.mjs: not committed, rewritten only on change).
 */
export default function config(phase: string): NextConfig {
  if (phase === PHASE_PRODUCTION_BUILD || phase === PHASE_DEVELOPMENT_SERVER) {
    const r = spawnSync(process.execPath, [path.join(process.cwd(), 'scripts', 'build-apps.mjs')], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`Generating the app views failed (scripts/build-apps.mjs exited ${r.status ?? r.signal})`);
  }
  return nextConfig;
}
