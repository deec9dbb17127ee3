import { toNextRoute } from '@/lib/adapters/next-route';

/** POST /api/proxy: the inspector's server-side proxy (token-gated; see lib/server/proxy.ts). */
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { POST } = toNextRoute();
