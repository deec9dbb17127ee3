import { buildAppCsp } from '../protocol/app-csp';
import { hostName, isAllowedHost } from '../engine/guards';

/**
 * The MCP Apps sandbox proxy page (`/sandbox/proxy.html`). The inspector frames it from the
 * other loopback name of the same server (127.0.0.1 ↔ localhost), so it runs on a different
 * origin with no second port. It writes the view's HTML into an inner frame with
 * `sandbox="allow-scripts"` (never `allow-same-origin`: the view gets an opaque origin) and
 * relays JSON-RPC between the two, dropping the `ui/notifications/sandbox-*` messages meant
 * for itself.
 *
 * Query: `host` = the inspector's origin (checked, then the only allowed embedder and message
 * peer), `csp` = JSON of the resource's declared `_meta.ui.csp`. The CSP goes in the HTTP header,
 * which the view cannot alter; the view's srcdoc document inherits it.
 */

const MAX_CSP_PARAM = 16 * 1024;

const BASE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** The inspector origin from `?host=`, when it is an http(s) origin on an allowed host other than this one. */
export function validHostOrigin(value: string | null, ownHost: string | null, allowedHosts: readonly string[] = []): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value) return undefined;
  if (!isAllowedHost(url.host, allowedHosts)) return undefined;
  // The whole point is a second origin: a view must never share the inspector's.
  if (ownHost && hostName(ownHost) === hostName(url.host)) return undefined;
  return url.origin;
}

function refuse(status: number, message: string): Response {
  const html = `<!doctype html><meta charset="utf-8"><title>Sandbox · Loupe</title><p style="font:14px system-ui;color:#b91c1c">${message}</p>`;
  return new Response(html, {
    status,
    headers: { ...BASE_HEADERS, 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'" },
  });
}

/** Answer a GET of the sandbox proxy page; `allowedHosts` are the names accepted besides loopback. */
export function sandboxProxyResponse(request: Request, allowedHosts: readonly string[] = []): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'The sandbox page answers GET only.');
  const url = new URL(request.url);
  const host = validHostOrigin(url.searchParams.get('host'), request.headers.get('host'), allowedHosts);
  if (!host)
    return refuse(400, 'The sandbox needs <code>?host=</code>: the origin of the Loupe inspector embedding it, on a different host name than this page.');
  const rawCsp = url.searchParams.get('csp') ?? '{}';
  if (rawCsp.length > MAX_CSP_PARAM) return refuse(400, 'The declared CSP is too large.');
  let declared: unknown;
  try {
    declared = JSON.parse(rawCsp);
  } catch {
    return refuse(400, 'The declared CSP is not JSON.');
  }
  const csp = buildAppCsp(declared, [host]);
  return new Response(proxyPage(host), { status: 200, headers: { ...BASE_HEADERS, 'Content-Security-Policy': csp.header } });
}

/** The proxy page: no external resources, one inline script (allowed by the CSP's 'unsafe-inline'). */
function proxyPage(host: string): string {
  const hostJson = JSON.stringify(host).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP App sandbox · Loupe</title>
<style>html,body{margin:0;height:100%;background:transparent}iframe{border:0;width:100%;height:100%;display:block}p{font:13px system-ui;color:#5b6a80;margin:8px}</style>
</head><body><p id="status">Waiting for the app…</p>
<script>
(() => {
  const HOST = ${hostJson};
  const FEATURES = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  if (window.parent === window) { document.getElementById('status').textContent = 'This page only works inside the Loupe inspector.'; return; }
  let inner;
  const isRpc = (d) => !!d && typeof d === 'object' && d.jsonrpc === '2.0';
  const forMe = (d) => typeof d.method === 'string' && d.method.startsWith('ui/notifications/sandbox-');
  const allowOf = (p) => Object.keys(FEATURES).filter((k) => p && typeof p === 'object' && p[k] && typeof p[k] === 'object').map((k) => FEATURES[k]).join('; ');
  function load(params) {
    if (inner || typeof params.html !== 'string') return;
    inner = document.createElement('iframe');
    inner.setAttribute('sandbox', 'allow-scripts');
    const allow = allowOf(params.permissions);
    if (allow) inner.setAttribute('allow', allow);
    inner.setAttribute('title', 'MCP App view');
    inner.srcdoc = params.html;
    // The view may navigate its own frame; a document that is not the one the host sent
    // must not keep the bridge, so the first load after the srcdoc one stops the view.
    let loads = 0;
    inner.addEventListener('load', () => {
      if (++loads < 2) return;
      inner.remove();
      const p = document.createElement('p');
      p.textContent = 'The app navigated away from its document and was stopped.';
      document.body.replaceChildren(p);
    });
    document.body.replaceChildren(inner);
  }
  window.addEventListener('message', (e) => {
    const d = e.data;
    if (!isRpc(d)) return;
    if (e.source === window.parent) {
      if (e.origin !== HOST) return;
      if (d.method === 'ui/notifications/sandbox-resource-ready') return load(d.params || {});
      if (!forMe(d) && inner && inner.contentWindow) inner.contentWindow.postMessage(d, '*');
    } else if (inner && e.source === inner.contentWindow && !forMe(d)) {
      window.parent.postMessage(d, HOST);
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, HOST);
})();
</script></body></html>`;
}
