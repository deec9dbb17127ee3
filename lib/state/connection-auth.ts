import { createAuthorizedFetch } from '../client/auth/authorized-fetch';
import { createPopupAuthorizer, OAUTH_CALLBACK_PATH } from '../client/auth/browser-redirect';
import type { TransportRoute } from '../client/auto-transport';
import { createHttpTransport } from '../client/http-transport';
import { createRoutedFetch } from '../client/routed-fetch';
import type { Transport } from '../client/transport';
import type { TrackedTransport } from '../client/tracking';
import { PROXY_PATH } from '../protocol/loupe-api';
import type { AuthSlice } from './auth-slice';
import type { ConnectionConfig } from './connection-slice';
import { absoluteUrl, configHeaders, pageOrigin } from './connection-transport';
import type { InspectorStoreOptions } from './inspector-store';

/**
 * The transport of a connection that authorizes: lib/client/auth's fetch wrapper under the HTTP
 * transport (so the session never sees a token), over a fetch that goes direct or through
 * Loupe's proxy per origin (the MCP server and the authorization server may answer CORS
 * differently). The redirect comes back to Loupe's own /oauth/callback page in a popup. The
 * wrapper's auth-lane frames go to the tracking decorator (the timeline's Auth lane) and to the
 * auth slice (the "why did this fail" summary).
 */

interface AuthorizedTransport {
  transport: Transport;
  /** Report the flow's frames through the tracked transport (once it exists). */
  attach(tracked: TrackedTransport): void;
}

/** Build it for `config` (an HTTP mode, not stdio); `signal` ends a flow waiting on the person (Disconnect). */
export function authorizedTransport(
  config: ConnectionConfig,
  options: InspectorStoreOptions,
  auth: () => AuthSlice['auth'],
  signal: AbortSignal,
  onRoute: (r: TransportRoute) => void,
): AuthorizedTransport {
  const url = absoluteUrl(config.url);
  const serverOrigin = new URL(url).origin;
  const mode = config.mode === 'direct' || config.mode === 'proxy' ? config.mode : 'auto';
  if (mode !== 'auto') onRoute({ via: mode, reason: 'chosen' });
  const routed = createRoutedFetch({
    mode,
    proxyEndpoint: options.proxyEndpoint ?? PROXY_PATH,
    pageOrigin: pageOrigin(),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    onRoute: (origin, r) => {
      if (origin === serverOrigin) onRoute(r);
    },
  });
  const s = auth().settings;
  const gate = (p: Parameters<AuthSlice['auth']['gate']>[0]) => {
    if (signal.aborted) return Promise.reject(new Error('disconnected'));
    return auth().gate(p);
  };
  const flow = createAuthorizedFetch({
    grant: 'authorization_code',
    ...(s.clientId.trim() ? { clientId: s.clientId.trim() } : {}),
    ...(s.clientSecret ? { clientSecret: s.clientSecret } : {}),
    ...(s.scope.trim() ? { scope: s.scope.trim() } : {}),
    redirectUri: `${pageOrigin()}${OAUTH_CALLBACK_PATH}`,
    authorizer: createPopupAuthorizer({
      gate,
      onBlocked: (u) => auth().setBlockedUrl(u),
      onSettled: () => auth().setBlockedUrl(undefined),
      signal,
    }),
    clientName: 'MCP Loupe inspector',
    onNotice: (text) => {
      if (text.startsWith('authorization failed')) auth().failed(text);
    },
    fetch: routed,
    gate,
  });
  signal.addEventListener('abort', () => auth().cancelStep(), { once: true });
  const transport = createHttpTransport({ url, headers: configHeaders(config), fetch: flow.fetch });
  return {
    transport,
    attach(tracked) {
      flow.setSink((f) => {
        // The flow numbers its steps from 1 on every connection: the connection id keeps them apart on one timeline.
        tracked.record({ ...f, exchangeId: `${tracked.connectionId}:${f.exchangeId}` });
        auth().observe(f);
      });
    },
  };
}
