import { createAutoTransport, type TransportRoute } from '../client/auto-transport';
import { createHttpTransport } from '../client/http-transport';
import { createStdioProxyTransport, type StdioOutput } from '../client/stdio-proxy-transport';
import type { Transport } from '../client/transport';
import { PROXY_PATH } from '../protocol/loupe-api';
import type { ConnectionConfig } from './connection-slice';
import type { InspectorStoreOptions } from './inspector-store';

/** The headers a config sends: enabled rows with a name, plus the bearer token. */
export function configHeaders(config: ConnectionConfig): Record<string, string> {
  const out: Record<string, string> = {};
  if (config.bearer.trim()) out.Authorization = `Bearer ${config.bearer.trim()}`;
  for (const h of config.headers) if (h.enabled && h.name.trim()) out[h.name.trim()] = h.value;
  return out;
}

/** The page's origin (a Node test has none: loopback stands in). */
export function pageOrigin(): string {
  return typeof location !== 'undefined' ? location.origin : 'http://127.0.0.1';
}

/** An absolute URL for the proxy (it needs one); paths resolve against the page's origin. */
export function absoluteUrl(url: string): string {
  try {
    return new URL(url, pageOrigin()).toString();
  } catch {
    return url;
  }
}

/**
 * The transport a config asks for. `argv` is the split stdio command line (checked non-empty by
 * the caller); `onRoute` hears which way an auto connection went and why (direct and proxy
 * connections report their own choice at once); `onOutput` hears a stdio child's log lines and exit.
 */
export function configTransport(
  config: ConnectionConfig,
  argv: string[],
  options: InspectorStoreOptions,
  onRoute: (r: TransportRoute) => void,
  onOutput?: (o: StdioOutput) => void,
): Transport {
  const headers = configHeaders(config);
  const endpoint = options.proxyEndpoint ?? PROXY_PATH;
  switch (config.mode) {
    case 'stdio':
      return createStdioProxyTransport({ command: argv[0] ?? '', args: argv.slice(1), fetch: options.fetch, onOutput });
    case 'proxy':
      onRoute({ via: 'proxy', reason: 'chosen' });
      return createHttpTransport({ url: absoluteUrl(config.url), headers, proxy: { endpoint }, fetch: options.fetch });
    case 'direct':
      onRoute({ via: 'direct', reason: 'chosen' });
      return createHttpTransport({ url: config.url, headers, fetch: options.fetch });
    default:
      return createAutoTransport({ url: config.url, headers, proxyEndpoint: endpoint, pageOrigin: pageOrigin(), fetch: options.fetch, onRoute });
  }
}
