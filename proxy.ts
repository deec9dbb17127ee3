import { toNextProxy } from '@/lib/adapters/next-proxy';

/** Host check and launch-token exchange for pages; `/mcp` and `/api` check for themselves. */
export const proxy = toNextProxy();

/** Pages only: `/mcp`, `/api` and Next's static assets skip the proxy. */
export const config = {
  matcher: ['/((?!(?:mcp|api)(?:/|$)|_next/static/|_next/image).*)'],
};
