import type { NextConfig } from 'next';

/** Next.js configuration for the Loupe web app. */
const nextConfig: NextConfig = {
  reactStrictMode: true,
  // Native addon: loaded from node_modules at run time, never bundled.
  serverExternalPackages: ['better-sqlite3'],
  poweredByHeader: false,
};

export default nextConfig;
