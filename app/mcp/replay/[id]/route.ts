import { toNextRoute } from '@/lib/adapters/next-route';

/** POST /mcp/replay/<id>: a recording served as a mock (see lib/server/replay-registry.ts). */
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, POST, DELETE, PUT } = toNextRoute();
