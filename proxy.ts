import { toNextProxy } from '@/lib/adapters/next-proxy';

/** Host check and launch-token exchange for pages; `/mcp` and `/api` check for themselves. */
export const proxy = toNextProxy();

export const config = {
  matcher: ['/((?!(?:mcp|api)(?:/|$)|_next/static/|_next/image).*)'],
};
