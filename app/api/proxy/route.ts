import { toNextRoute } from '@/lib/adapters/next-route';

/** The mock router needs Node (SQLite store, child processes): never the edge runtime. */
export const runtime = 'nodejs';
/** Every request is live MCP or control traffic: never prerendered or cached. */
export const dynamic = 'force-dynamic';

/** POST /api/proxy: the inspector's server-side proxy (token-gated; see lib/server/proxy.ts). */
export const { POST } = toNextRoute();
