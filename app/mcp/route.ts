import { toNextRoute } from '@/lib/adapters/next-route';

/** The mock router needs Node (SQLite store, child processes): never the edge runtime. */
export const runtime = 'nodejs';
/** Every request is live MCP or control traffic: never prerendered or cached. */
export const dynamic = 'force-dynamic';

/** `/mcp`: the built-in demo mock over Streamable HTTP, served by the process's mock router. */
export const { GET, POST, DELETE, PUT } = toNextRoute();
