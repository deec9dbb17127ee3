import { buildAppCsp } from '../protocol/app-csp';
import { BRIDGE_BYTES_PER_WINDOW, BRIDGE_BYTES_WINDOW_MS, BRIDGE_MESSAGES_PER_SECOND, createFloodGate, SANDBOX_FLOODED_METHOD } from '../protocol/bridge-gate';
import { sandboxOriginFor } from '../protocol/sandbox-origin';
import { hostName, isAllowedHost } from '../engine/guards';

/**
 * The MCP Apps sandbox proxy page (`/sandbox/proxy.html`). The inspector frames it from the
 * other loopback name of the same server (127.0.0.1 ↔ localhost), so it runs on a different
 * origin with no second port. It writes the view's HTML into an inner frame with
 * `sandbox="allow-scripts"` (never `allow-same-origin`: the view gets an opaque origin) and
 * relays JSON-RPC between the two, dropping the `ui/notifications/sandbox-*` messages meant
 * for itself. It holds the view to the bridge limits (lib/protocol/bridge-gate.ts, the same gate
 * the host runs): past them it removes the view, relays nothing more and sends the host one
 * `ui/notifications/sandbox-flooded` notice (again as its dropped count grows, at most every
 * NOTICE_MS), so a view posting 20,000 messages costs the inspector's page one message, not
 * 20,000: the browser routes each postMessage across processes and the page would dispatch each.
 *
 * Query: `host` = the inspector's origin (checked against this page's own origin, then the only
 * allowed embedder and message peer), `csp` = JSON of the resource's declared `_meta.ui.csp`.
 * The CSP goes in the HTTP header, which the view cannot alter; the view's srcdoc document
 * inherits it.
 */

const MAX_CSP_PARAM = 16 * 1024;
/** While a stopped view's messages keep coming, the dropped count is told again at most this often (ms). */
const NOTICE_MS = 100;
/** The gate, as source the page runs: createFloodGate is self-contained for this. */
const GATE_JS = `(${createFloodGate.toString()})(${BRIDGE_MESSAGES_PER_SECOND}, ${BRIDGE_BYTES_PER_WINDOW}, ${BRIDGE_BYTES_WINDOW_MS})`;

const BASE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** Where this Loupe serves its inspector: the port it listens on and the loopback names that reach it there. */
export interface ServedInspector {
  port: number;
  /** URL host names (`127.0.0.1`, `localhost`, `[::1]`...); `localhost` stands for `*.localhost` too. */
  names: readonly string[];
}

/**
 * The loopback names of a server bound to `address` (as the system reports it): that address
 * (127.0.0.1 for a wildcard bind, as the CLI prints it), `localhost`, and `[::1]` when it listens
 * there. Never another 127.x address: nothing of ours answers on it.
 */
export function inspectorNames(address: string, ipv6Loopback: boolean): string[] {
  const own = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address.includes(':') ? `[${address}]` : address;
  return [...new Set([own, 'localhost', ...(ipv6Loopback ? ['[::1]'] : [])])];
}

/** Whether `name` reaches this Loupe: one of its names, or a `*.localhost` name (browsers resolve those as localhost). */
function servesName(served: ServedInspector, name: string): boolean {
  return served.names.includes(name) || (name.endsWith('.localhost') && served.names.includes('localhost'));
}

/**
 * The inspector origin from `?host=`, when it is this very server's inspector: the port it
 * listens on, under one of its loopback names that pairs with this page's
 * (lib/protocol/sandbox-origin.ts, the pairing the inspector framed it with), or under a name of
 * `allowedHosts` on the port the page was asked on. Any other page (another port, another 127.x
 * address, an address some other process holds) would become the page's embedder and message
 * peer and could run its own HTML in the view frame with camera and microphone, so it is refused.
 */
export function validHostOrigin(
  value: string | null,
  ownHost: string | null,
  served: ServedInspector,
  allowedHosts: readonly string[] = [],
): string | undefined {
  if (!value || !ownHost) return undefined;
  let url: URL;
  let own: URL;
  try {
    url = new URL(value);
    own = new URL(`${url.protocol}//${ownHost}`);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value) return undefined;
  if (!isAllowedHost(url.host, allowedHosts)) return undefined;
  // One server, one port: the inspector and its sandbox are the same Loupe.
  if (url.port !== own.port) return undefined;
  if (sandboxOriginFor(url.origin) === own.origin) {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    return port === served.port && servesName(served, url.hostname) ? url.origin : undefined;
  }
  // The whole point is a second origin: a view must never share the inspector's.
  const allowed = allowedHosts.some((h) => h.toLowerCase() === url.hostname);
  return allowed && hostName(ownHost) !== url.hostname ? url.origin : undefined;
}

function refuse(status: number, message: string): Response {
  const html = `<!doctype html><meta charset="utf-8"><title>Sandbox · Loupe</title><p style="font:14px system-ui;color:#b91c1c">${message}</p>`;
  return new Response(html, {
    status,
    headers: { ...BASE_HEADERS, 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'" },
  });
}

/** Answer a GET of the sandbox proxy page for the inspector `served`; `allowedHosts` are the names accepted besides loopback. */
export function sandboxProxyResponse(request: Request, served: ServedInspector, allowedHosts: readonly string[] = []): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'The sandbox page answers GET only.');
  const url = new URL(request.url);
  const host = validHostOrigin(url.searchParams.get('host'), request.headers.get('host'), served, allowedHosts);
  if (!host)
    return refuse(
      400,
      'The sandbox needs <code>?host=</code>: the origin of the Loupe inspector embedding it, which is this server on the same port under its other loopback name (127.0.0.1 ↔ localhost). Open Apps from the inspector of this Loupe.',
    );
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
  const FLOODED = ${JSON.stringify(SANDBOX_FLOODED_METHOD)};
  const gate = ${GATE_JS};
  let inner;
  // The view's window, kept once its frame is removed: messages it queued before are still counted.
  let view = null;
  let told = -1;
  let noticeTimer = 0;
  const isRpc = (d) => !!d && typeof d === 'object' && d.jsonrpc === '2.0';
  const forMe = (d) => typeof d.method === 'string' && d.method.startsWith('ui/notifications/sandbox-');
  const allowOf = (p) => Object.keys(FEATURES).filter((k) => p && typeof p === 'object' && p[k] && typeof p[k] === 'object').map((k) => FEATURES[k]).join('; ');
  const stopped = (text) => {
    const p = document.createElement('p');
    p.textContent = text;
    document.body.replaceChildren(p);
  };
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
      view = null;
      stopped('The app navigated away from its document and was stopped.');
    });
    document.body.replaceChildren(inner);
    view = inner.contentWindow;
  }
  // The host hears of the pause in order, after the last message relayed, and again as drops add up.
  function tell() {
    noticeTimer = 0;
    const report = gate.report();
    if (!report || report.dropped === told) return;
    told = report.dropped;
    window.parent.postMessage({ jsonrpc: '2.0', method: FLOODED, params: report }, HOST);
  }
  function flooded() {
    if (told >= 0) {
      // At 1, 2, 4, 8, ... drops at once (the host hears while it still listens, a few notices for any flood), else in a while.
      const n = gate.report().dropped;
      if ((n & (n - 1)) === 0) return tell();
      if (!noticeTimer) noticeTimer = setTimeout(tell, ${NOTICE_MS});
      return;
    }
    tell();
    if (inner) inner.remove();
    stopped('The app flooded the bridge and was stopped.');
  }
  function fromView(e) {
    const now = performance.now();
    // Counted before anything reads the message; once stopped, nothing is read at all.
    if (!gate.admit(now)) return flooded();
    const d = e.data;
    if (!isRpc(d) || forMe(d)) return;
    let bytes = 0;
    try {
      bytes = JSON.stringify(d).length;
    } catch {}
    if (!gate.weigh(now, bytes)) return flooded();
    window.parent.postMessage(d, HOST);
  }
  window.addEventListener('message', (e) => {
    if (view && e.source === view) return fromView(e);
    if (e.source !== window.parent || e.origin !== HOST) return;
    const d = e.data;
    if (!isRpc(d)) return;
    if (d.method === 'ui/notifications/sandbox-resource-ready') return load(d.params || {});
    if (!forMe(d) && inner && inner.contentWindow) inner.contentWindow.postMessage(d, '*');
  });
  // The proxy's own message counts too: the host counts everything from this window.
  gate.admit(performance.now());
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, HOST);
})();
</script></body></html>`;
}
