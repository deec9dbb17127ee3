import { toNextRoute } from '@/lib/adapters/next-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, POST, DELETE, PUT } = toNextRoute();
