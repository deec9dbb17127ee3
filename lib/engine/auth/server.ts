import type { AuthSpec } from '../../scenario/auth-schema';
import type { ExchangeTap } from '../exchange-tap';
import { isAllowedHost } from '../guards';
import { headerRecord, safeHost, type HttpInput, type HttpOutput } from '../http-types';
import { randomToken, type Clock } from '../runtime';
import { authorize, decide } from './authorize';
import { register } from './clients';
import { jsonReply, oauthError, parseFields, redactHeaders, redactParams, redactUrl, toOutput, type AuthReply } from './http-util';
import { resourceMetadata, serverMetadata } from './metadata';
import { originOf, routeAuthPath } from './places';
import { guardRequest, type Refusal } from './resource';
import { createAuthState, type AuthContext } from './state';
import { token } from './token';
import { createTokenKeys } from './tokens';

/**
 * One scenario's authorization side: the protected resource's guard (called by the HTTP front
 * before an MCP request is served) and the authorization server's endpoints and discovery
 * documents (which the router sends here). Every auth exchange is journaled as method
 * `oauth:<endpoint>` with its secrets redacted to hashes (http-util.ts), so the report card can
 * grade the flow while the journal never holds a code, token, secret or verifier.
 */

/** The authorization side of an engine. */
interface AuthServer {
  /** Answer an auth path (metadata, authorize, token, register, jwks, consent); 404 for others it was sent. */
  handle(input: HttpInput): Promise<HttpOutput>;
  /** Refuse an MCP request that lacks a good token (401) or scope (403); undefined lets it through. */
  guard(input: HttpInput, fields: Record<string, unknown>): Promise<Refusal | undefined>;
  reset(): void;
}

interface AuthServerOptions {
  spec: AuthSpec;
  scenarioId: string;
  clock: Clock;
  tap: ExchangeTap;
  fetch?: typeof fetch;
  /** The same Host allow-list as the MCP endpoint: a rebound DNS name must not reach the token endpoint either. */
  allowedHosts: readonly string[];
}

const MAX_BODY = 64 * 1024;

/** Create the authorization side of a scenario. */
export function createAuthServer(options: AuthServerOptions): AuthServer {
  const { spec, clock } = options;
  const ctx: AuthContext = {
    spec,
    scenarioId: options.scenarioId,
    state: createAuthState(spec),
    keys: createTokenKeys(),
    now: () => clock.now(),
    random: () => randomToken(24),
    sleep: (ms) => new Promise((resolve) => clock.setTimeout(resolve, ms)),
    fetch: options.fetch ?? ((...a) => fetch(...a)),
  };

  async function answer(
    input: HttpInput,
    route: ReturnType<typeof routeAuthPath>,
    origin: string,
    query: Record<string, string>,
    fields: Record<string, string>,
    body: unknown,
  ) {
    const facts: Record<string, unknown> = {};
    const method = input.method;
    const need = (m: string): AuthReply | undefined => (method === m ? undefined : oauthError(405, 'invalid_request', `use ${m}`, { Allow: m }));
    let reply: AuthReply;
    switch (route.kind) {
      case 'prm':
        reply = need('GET') ?? jsonReply(200, resourceMetadata(ctx, origin, route.resource));
        break;
      case 'as-metadata':
        reply = need('GET') ?? jsonReply(200, serverMetadata(ctx, origin, route.as, route.flavor));
        break;
      case 'jwks':
        reply = need('GET') ?? jsonReply(200, await ctx.keys.jwks());
        break;
      case 'authorize':
        reply = need('GET') ?? (await authorize(ctx, origin, route.as, query));
        break;
      case 'consent':
        reply = need('POST') ?? decide(ctx, fields);
        break;
      case 'register':
        reply = need('POST') ?? (spec.server.dcr ? register(ctx, route.as, body) : oauthError(404, 'invalid_request', 'dynamic client registration is off'));
        break;
      case 'token': {
        if (method !== 'POST') {
          reply = oauthError(405, 'invalid_request', 'use POST', { Allow: 'POST' });
          break;
        }
        const t = await token(ctx, origin, route.as, input.headers.get('authorization'), fields);
        Object.assign(facts, t.facts);
        reply = t.reply;
        break;
      }
      default:
        reply = jsonReply(404, { error: 'not_found', error_description: `nothing is served at ${new URL(input.url).pathname}` });
    }
    return { reply, facts };
  }

  return {
    async handle(input) {
      const host = input.headers.get('host') ?? safeHost(input.url);
      if (!options.allowedHosts.includes('*') && !isAllowedHost(host, options.allowedHosts))
        return toOutput(oauthError(403, 'invalid_request', 'Forbidden: Host header is not a loopback name or an allowed host'));
      const url = new URL(input.url);
      const origin = originOf(input.url);
      const route = routeAuthPath(spec, options.scenarioId, url.pathname, origin);
      const text = input.method === 'POST' ? await input.readBody(MAX_BODY) : '';
      if (text === undefined) return toOutput(oauthError(413, 'invalid_request', 'the body is too large'));
      const contentType = input.headers.get('content-type');
      const fields = parseFields(text, contentType);
      let body: unknown;
      try {
        body = contentType?.includes('json') && text ? JSON.parse(text) : fields;
      } catch {
        body = undefined;
      }
      const query = Object.fromEntries(url.searchParams);
      const { reply, facts } = await answer(input, route, origin, query, fields, body);
      const recordBody = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
      options.tap
        .open({
          method: `oauth:${route.kind}`,
          requestHeaders: redactHeaders(headerRecord(input.headers)),
          requestBody: {
            oauth: {
              endpoint: route.kind,
              ...('as' in route ? { as: route.as } : {}),
              httpMethod: input.method,
              path: url.pathname,
              query: redactParams(query),
              params: redactParams(recordBody),
              facts,
            },
          },
        })
        .respond(reply.status, {
          ...(reply.json ? { json: redactParams(reply.json) } : {}),
          ...(reply.headers.Location ? { location: redactUrl(reply.headers.Location) } : {}),
          ...(reply.html ? { html: true } : {}),
        });
      return toOutput(reply);
    },
    guard: (input, fields) => guardRequest(ctx, input.url, input.headers.get('authorization'), fields),
    reset() {
      ctx.state = createAuthState(spec);
    },
  };
}
