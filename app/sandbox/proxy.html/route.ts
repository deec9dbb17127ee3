import { sandboxProxyResponse } from '@/lib/server/sandbox-proxy';

/** The Node runtime, like the other routes. */
export const runtime = 'nodejs';
/** Never prerendered or cached: the page and its CSP depend on the request's `?host=` and `?csp=`. */
export const dynamic = 'force-dynamic';

/** The MCP Apps sandbox proxy page, served on the inspector's other loopback name. */
export function GET(request: Request): Response {
  return sandboxProxyResponse(request);
}
