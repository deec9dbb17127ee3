import type { ScenarioInput } from '../schema';
import { objectSchema } from './schema-helpers';

/**
 * `flaky-network`: a weather API behind an overloaded gateway. A fixed seed makes the same
 * requests fail on every run, so a client's retry logic can be tested deterministically:
 * 503 with Retry-After on about one request in five, a normally distributed latency on tool
 * calls, and now and then an HTML error page spliced into the SSE stream as a data frame.
 */

const city = { type: 'string', description: 'City name, e.g. Lisbon' };

/** The flaky-network scenario as authored. */
export const flakyNetworkScenario: ScenarioInput = {
  id: 'flaky-network',
  name: 'Flaky network',
  description:
    'A weather API behind an overloaded gateway (seed 37, so every run fails the same requests): about 1 request in 5 gets HTTP 503 with Retry-After: 1, ' +
    'tool calls take a normally distributed 250 ± 150 ms, and about 1 tool call in 10 carries a non-JSON SSE data frame (a proxy error page). ' +
    'A robust client honours Retry-After, retries idempotent requests, and skips a frame it cannot parse without losing the response.',
  server: {
    name: 'loupe-flaky-weather',
    version: '1.0.0',
    title: 'Flaky weather',
    instructions: 'Weather forecasts behind a flaky gateway. Requests may fail with 503 and Retry-After; retry them after the given delay.',
  },
  seed: 37,
  tools: [
    {
      name: 'get_forecast',
      title: 'Get forecast',
      description: 'Daily forecast for a city, up to 7 days ahead.',
      inputSchema: objectSchema({ city, days: { type: 'integer', minimum: 1, maximum: 7, description: 'How many days (default 3)' } }, { required: ['city'] }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      result: {
        content: [{ type: 'text', text: 'Forecast for {{args.city}}: sunny spells, 24 °C by day, 16 °C at night; light wind from the north-west.' }],
        structuredContent: { city: '{{args.city}}', summary: 'sunny spells', highC: 24, lowC: 16 },
      },
    },
    {
      name: 'get_current_conditions',
      title: 'Current conditions',
      description: 'The weather right now in a city.',
      inputSchema: objectSchema({ city }, { required: ['city'] }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      result: { content: [{ type: 'text', text: '{{args.city}}: 21 °C, 55 % humidity, clear sky.' }] },
    },
    {
      name: 'list_alerts',
      title: 'Weather alerts',
      description: 'Active weather alerts for a region.',
      inputSchema: objectSchema({ region: { type: 'string', description: 'Region or country code, e.g. PT' } }, { required: ['region'] }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      result: {
        content: [{ type: 'text', text: 'No active weather alerts for {{args.region}}.' }],
        structuredContent: { region: '{{args.region}}', alerts: [] },
      },
    },
  ],
  faults: [
    {
      name: 'gateway-503',
      match: { probability: 0.2 },
      action: { kind: 'http-status', status: 503, retryAfter: 1, body: 'Service Unavailable: the upstream is overloaded, retry after 1 second' },
    },
    { name: 'slow-upstream', match: { method: 'tools/call' }, action: { kind: 'latency', distribution: 'normal', mean: 250, stddev: 150 } },
    {
      name: 'proxy-error-frame',
      match: { method: 'tools/call', probability: 0.1 },
      action: { kind: 'garbage', text: '<html><body><h1>502 Bad Gateway</h1></body></html>' },
    },
  ],
};
