import { SANDBOX_PROXY_PATH } from '../protocol/loupe-api';

/** The proxy page URL for a view (at lib/protocol/sandbox-origin.ts's origin): the inspector origin it trusts and the CSP the resource declares. */
export function sandboxProxyUrl(sandboxOrigin: string, inspectorOrigin: string, csp: unknown): string {
  const q = new URLSearchParams({ host: inspectorOrigin, csp: JSON.stringify(csp ?? {}) });
  return `${sandboxOrigin}${SANDBOX_PROXY_PATH}?${q.toString()}`;
}
