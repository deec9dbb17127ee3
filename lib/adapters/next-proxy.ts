import { pageGate } from '../server/page-gate';

/**
 * Request interception for the Next app (Next 16 `proxy.ts`): every page request passes the
 * page gate (Host check, launch-token exchange for the cookie; see lib/server/page-gate.ts).
 */

/** The proxy function: a Response ends the request, undefined lets it through. */
export function toNextProxy(): (request: Request) => Response | undefined {
  return pageGate;
}
