import { PROXY_CHALLENGE_HEADER } from '../protocol/loupe-api';

/**
 * An answer of Loupe's HTTP proxy as the upstream sent it: a 401 challenge the proxy moved aside
 * (so the browser would not answer it with a sign-in dialog in Loupe's name, see
 * PROXY_CHALLENGE_HEADER) goes back under `WWW-Authenticate`. Any other answer is returned as is.
 */
export function upstreamAnswer(res: Response): Response {
  const challenge = res.headers.get(PROXY_CHALLENGE_HEADER);
  if (challenge === null) return res;
  const headers = new Headers(res.headers);
  headers.delete(PROXY_CHALLENGE_HEADER);
  headers.set('www-authenticate', challenge);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
