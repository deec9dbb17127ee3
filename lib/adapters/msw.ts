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
 */
import { http, type RequestHandler } from 'msw';
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
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    throw new Error(`Failed to create MSW handlers: "${url}" is not an absolute URL`);
  }
  const engine = createScenarioHandler(scenario, {
    ...engineOptions,
    allowedHosts: [...(engineOptions.allowedHosts ?? []), hostname],
    allowedOrigins: engineOptions.allowedOrigins ?? ['*'],
  });
  return { handlers: [http.all(url, ({ request }) => engine.fetch(request))], engine };
}
