import { sandboxProxyResponse } from '@/lib/server/sandbox-proxy';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The MCP Apps sandbox proxy page, served on the inspector's other loopback name. */
export function GET(request: Request): Response {
  return sandboxProxyResponse(request);
}
