import crypto from 'node:crypto';
import http from 'node:http';

/**
 * A small real OAuth authorization server and protected-resource gateway on one node:http
 * server, in front of a real MCP endpoint: 401 + `WWW-Authenticate` without a valid bearer,
 * protected resource metadata, RFC 8414 metadata, dynamic registration (a secret without
 * `client_secret_expires_at`), an authorize endpoint that redirects at once with `iss`, and a
 * token endpoint that checks the PKCE verifier, the client secret (post) and `resource`.
 * Every secret it hands out or receives is kept in `secrets`, so a test can look for them.
 */

export interface OAuthGateway {
  url: string;
  /** The MCP endpoint behind the gate. */
  mcpUrl: string;
  /** Every secret value that crossed the wire (codes, verifiers, state, client secrets, tokens). */
  secrets: Set<string>;
  /** Token requests seen (grant type and resource). */
  tokenRequests: { grant: string; resource?: string }[];
  /** Invalidate every access token issued so far (as if they expired); refresh tokens stay valid. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

const random = () => crypto.randomBytes(24).toString('base64url');
const s256 = (v: string) => crypto.createHash('sha256').update(v).digest('base64url');

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let b = '';
    req.on('data', (d) => (b += d));
    req.on('end', () => resolve(b));
  });
}

/** Start the gateway in front of `upstream` (a Streamable HTTP MCP endpoint). */
export async function startOAuthGateway(upstream: string): Promise<OAuthGateway> {
  const secrets = new Set<string>();
  const tokenRequests: { grant: string; resource?: string }[] = [];
  const clients = new Map<string, string>();
  const codes = new Map<string, { challenge: string; clientId: string }>();
  const access = new Set<string>();
  const refreshTokens = new Set<string>();
  let base = '';
  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    const body = await readBody(req);
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp')
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: ['mcp:read'] });
    if (url.pathname === '/.well-known/oauth-authorization-server')
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post'],
        authorization_response_iss_parameter_supported: true,
        scopes_supported: ['mcp:read', 'offline_access'],
      });
    if (url.pathname === '/register' && req.method === 'POST') {
      const clientId = `client-${random()}`;
      const secret = random();
      clients.set(clientId, secret);
      secrets.add(secret);
      const asked = JSON.parse(body) as Record<string, unknown>;
      return json(res, 201, { ...asked, client_id: clientId, client_secret: secret, token_endpoint_auth_method: 'client_secret_post' });
    }
    if (url.pathname === '/authorize') {
      const p = url.searchParams;
      const code = random();
      secrets.add(code);
      const state = p.get('state') ?? '';
      secrets.add(state);
      codes.set(code, { challenge: p.get('code_challenge') ?? '', clientId: p.get('client_id') ?? '' });
      const back = new URL(p.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', state);
      back.searchParams.set('iss', base);
      return res.writeHead(302, { Location: back.toString() }).end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const f = new URLSearchParams(body);
      tokenRequests.push({ grant: f.get('grant_type') ?? '', resource: f.get('resource') ?? undefined });
      const clientId = f.get('client_id') ?? '';
      if (!clients.has(clientId) || clients.get(clientId) !== f.get('client_secret')) return json(res, 401, { error: 'invalid_client' });
      if (f.get('grant_type') === 'authorization_code') {
        const verifier = f.get('code_verifier') ?? '';
        secrets.add(verifier);
        const issued = codes.get(f.get('code') ?? '');
        codes.delete(f.get('code') ?? '');
        if (!issued || issued.challenge !== s256(verifier) || issued.clientId !== clientId) return json(res, 400, { error: 'invalid_grant' });
      } else if (f.get('grant_type') === 'refresh_token') {
        // Rotated: a refresh token works once.
        if (!refreshTokens.delete(f.get('refresh_token') ?? '')) return json(res, 400, { error: 'invalid_grant' });
      } else return json(res, 400, { error: 'unsupported_grant_type' });
      const token = random();
      const refresh = random();
      access.add(token);
      secrets.add(token);
      secrets.add(refresh);
      refreshTokens.add(refresh);
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh, scope: f.get('scope') ?? '' });
    }
    if (url.pathname === '/mcp') {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer || !access.has(bearer))
        return json(
          res,
          401,
          { error: 'invalid_token' },
          { 'WWW-Authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="mcp:read"` },
        );
      // Forward to the real MCP endpoint, without the token (no passthrough).
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && (k.startsWith('mcp-') || k === 'content-type' || k === 'accept' || k === 'last-event-id')) headers[k] = v;
      const up = await fetch(upstream, { method: req.method ?? 'POST', headers, ...(req.method === 'POST' ? { body } : {}) });
      const out: Record<string, string> = {};
      up.headers.forEach((v, k) => {
        if (k === 'content-type' || k.startsWith('mcp-')) out[k] = v;
      });
      res.writeHead(up.status, out).end(await up.text());
      return;
    }
    json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`;
  return {
    url: base,
    mcpUrl: `${base}/mcp`,
    secrets,
    tokenRequests,
    expireAccessTokens: () => access.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
