/**
 * `mcp-loupe/msw`: serve a scenario through Mock Service Worker, in a browser (service worker)
 * or a test runner (`setupServer` from `msw/node`), with no port and no process.
 *
 *   import { setupServer } from 'msw/node';
 *   import { createMswHandlers } from 'mcp-loupe/msw';
 *   const { handlers, engine } = createMswHandlers('demo');
 *   const server = setupServer(...handlers);
 *   server.listen();
 *   // ...point any MCP client at http://localhost/mcp, then read engine.reportCard()
 *
 * A scenario with an `auth:` block is served whole, as `mcp-loupe mock` serves it: the
 * protected resource's 401, its metadata under `/.well-known/`, and the authorization server
 * under `/mcp/<id>/as` (metadata, register, authorize, token, jwks, consent), all on the URL's
 * origin. Its discovery documents are laid out for an endpoint at `/mcp` or `/mcp/<id>`, so
 * such a scenario needs one of those paths.
 */
import { http, type RequestHandler } from 'msw';
import { toHttpInput, toResponse } from '../engine/http-types';
import { createScenarioHandler, type MockEngine, type MockEngineOptions, type Scenario, type ScenarioInput } from '../engine/public';

/** Options of {@link createMswHandlers}: the endpoint URL plus any engine option (stores, clock, secret, ...). */
export interface MswHandlersOptions extends Omit<MockEngineOptions, 'scenario'> {
  /** The MCP endpoint the handlers intercept (any method; the engine answers non-POST with 405). Default `http://localhost/mcp`. */
  url?: string;
}

/** What {@link createMswHandlers} returns. */
export interface MswHandlers {
  /** Pass to `setupServer(...handlers)` or `setupWorker(...handlers)`. */
  handlers: RequestHandler[];
  /** The engine behind them: tasks, journal, report card, reset, close. */
  engine: MockEngine;
}

/**
 * MSW handlers that answer the MCP endpoint at `url` with a mock engine for a scenario
 * (a built-in id such as `demo`, or a scenario object). The URL's host is accepted by the
 * engine's Host check. Origin is not checked by default: MSW only sees requests made by the
 * page or process it runs in, so there is no cross-site caller to refuse; pass
 * `allowedOrigins` to check it anyway.
 */
export function createMswHandlers(scenario: string | ScenarioInput | Scenario, options: MswHandlersOptions = {}): MswHandlers {
  const { url = 'http://localhost/mcp', ...engineOptions } = options;
  let endpoint: URL;
  try {
    endpoint = new URL(url);
  } catch {
    throw new Error(`Failed to create MSW handlers: "${url}" is not an absolute URL`);
  }
  const hostname = endpoint.hostname;
  const engine = createScenarioHandler(scenario, {
    ...engineOptions,
    allowedHosts: [...(engineOptions.allowedHosts ?? []), hostname],
    allowedOrigins: engineOptions.allowedOrigins ?? ['*'],
  });
  const handlers: RequestHandler[] = [http.all(url, ({ request }) => engine.fetch(request))];
  const auth = engine.handleAuth;
  if (auth) {
    const id = engine.scenario.id;
    const path = endpoint.pathname.replace(/\/$/, '');
    if (path !== '/mcp' && path !== `/mcp/${id}`)
      throw new Error(
        `Failed to create MSW handlers: scenario "${id}" has an auth: block, whose discovery documents describe an endpoint at /mcp or /mcp/${id}, not ${endpoint.pathname}`,
      );
    const serve = async (request: Request) => toResponse(await auth(toHttpInput(request)));
    // The paths the mock's router sends to the auth side: its discovery documents and the issuer's endpoints.
    // Another /.well-known/ document of the page's own origin is left alone (MSW passes it on).
    const documents = /^\/\.well-known\/(?:oauth-protected-resource|oauth-authorization-server|openid-configuration)(?:\/|$)/;
    handlers.push(
      http.all(`${endpoint.origin}/.well-known/*`, ({ request }) => (documents.test(new URL(request.url).pathname) ? serve(request) : undefined)),
      http.all(`${endpoint.origin}/mcp/${id}/*`, ({ request }) => serve(request)),
    );
  }
  return { handlers, engine };
}
