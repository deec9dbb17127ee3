import { describeOutcome, type RequestOutcome } from '../client/results';
import { blockedPortReason } from '../shared/blocked-ports';

/**
 * A failed connect, in words a user can act on: what went wrong and what to do about it.
 * The client's own texts ("network: Failed to reach …: Failed to fetch") are true but leave the
 * user guessing, above all in a browser, where a CORS refusal and a dead host look the same.
 */

/** Where the connect went: the form's URL and transport, and the page's origin. */
interface ConnectTarget {
  url: string;
  mode: 'auto' | 'direct' | 'proxy' | 'stdio';
  pageOrigin: string;
}

/** What went wrong and how to fix it. */
export interface ConnectProblem {
  cause: string;
  fix: string;
  /** The server asks for authorization (HTTP 401): the connection bar offers Authorize. */
  auth?: boolean;
  /** The stdio server's process ended (the badge says Exited; Connect starts it again). */
  exited?: boolean;
}

/** Why the URL's port is one fetch never connects to, when it is (the server may well be up). */
function blockedPortOf(url: string, pageOrigin: string): string | undefined {
  try {
    const u = new URL(url, pageOrigin);
    return blockedPortReason(Number(u.port || (u.protocol === 'https:' ? 443 : 80)));
  } catch {
    return undefined;
  }
}

function originOf(url: string, pageOrigin: string): string | undefined {
  try {
    return new URL(url, pageOrigin).origin;
  } catch {
    return undefined;
  }
}

/** The proxy's refusal code and text out of "Proxy refused the request (code): text". */
function proxyRefusal(message: string): { code: string; text: string } | undefined {
  const m = /Proxy refused the request \(([\w-]+)\): ([\s\S]*)$/.exec(message);
  return m?.[1] && m[2] !== undefined ? { code: m[1], text: m[2] } : undefined;
}

const PROXY_FIX: Record<string, string> = {
  unreachable: 'Start the server, or check the host and port in the URL.',
  timeout: 'Check that the server is not stuck; the proxy waits 30 s for an answer.',
  self: "Point the URL at the MCP server, not at Loupe's own API.",
  scheme: 'Use an http:// or https:// URL.',
  url: 'Type the full URL of the MCP endpoint, e.g. https://server.example/mcp.',
};

/** The transport's words for a request that never got an HTTP answer (http-transport.ts). */
const NEVER_REACHED = /^Failed to (reach|open the stream at) /;

/**
 * Why `url` cannot be an HTTP connection's target, before anything is sent: it must be an
 * http(s) URL, or a path on this Loupe (`/mcp`). Anything else would be fetched as a path
 * relative to the page, and the user would read Loupe's own 405 as the server's answer.
 */
export function urlProblem(url: string): ConnectProblem | undefined {
  const text = url.trim();
  const example = 'e.g. http://127.0.0.1:3001/mcp, or a path on this Loupe such as /mcp';
  if (!text) return { cause: 'Failed to connect: type the server’s URL.', fix: `Type the MCP endpoint’s URL (${example}).` };
  // A path on this Loupe stays on its origin: not "//host/…", nor "/\\host/…", which URL parsing reads as a host too.
  if (text.startsWith('/') && new URL(text, 'http://loupe.invalid').host === 'loupe.invalid') return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol === 'http:' || parsed?.protocol === 'https:') return undefined;
  // "localhost:3001/mcp" parses, with "localhost:" as its scheme: the user left out http://.
  // "mcp" or "mcp/demo": most likely a path on this Loupe without its leading slash.
  if (/^[\w-]+(\/\S*)?$/.test(text))
    return {
      cause: `Failed to connect: “${text}” is not a URL.`,
      fix: `Did you mean /${text} on this Loupe, or http://${text}? Type a full URL or a path (${example}).`,
    };
  if (/^([\w.-]+|\[[\da-fA-F:.]+\])(:\d+)?(\/\S*)?$/.test(text))
    return { cause: `Failed to connect: “${text}” is not a URL.`, fix: `Did you mean http://${text}? Type the full URL (${example}).` };
  const cause = parsed ? `Failed to connect: ${parsed.protocol} URLs are not MCP over HTTP.` : `Failed to connect: “${text}” is not a URL.`;
  const fix = `Type the MCP endpoint’s full URL (${example}).`;
  return { cause, fix };
}

/** Explain a connect that failed with `outcome` (a stdio or unknown failure keeps the client's words). */
export function explainConnectFailure(target: ConnectTarget, outcome: RequestOutcome): ConnectProblem {
  const where = target.url;
  if (outcome.type === 'failure') {
    const blocked = target.mode === 'stdio' ? undefined : blockedPortOf(where, target.pageOrigin);
    if (blocked && (outcome.reason === 'network' || outcome.reason === 'proxy'))
      return {
        cause: `Could not connect to ${where}: ${blocked}, so nothing was sent.`,
        fix: 'Serve the MCP server on another port (e.g. 3001); no browser or fetch-based client can reach this one.',
      };
    if (outcome.reason === 'auth')
      return {
        cause: `${where} requires authorization (HTTP 401).`,
        fix: 'Press Authorize to sign in with OAuth, or open Headers and enter a bearer token.',
        auth: true,
      };
    const refusal = outcome.reason === 'proxy' ? proxyRefusal(outcome.message) : undefined;
    if (refusal) {
      const cause =
        refusal.code === 'unreachable'
          ? `Nothing answered at ${where}: ${refusal.text.replace(/^Failed to reach [^:]+:\/\/[^:]+(:\d+)?: /, '')}.`
          : refusal.text;
      return { cause, fix: PROXY_FIX[refusal.code] ?? 'Check the URL and the server.' };
    }
    // The server answered and the stream then broke (a crash, a proxy cutting it): saying
    // "nothing answered" would send the user to start a server that is running.
    if ((outcome.reason === 'network' || outcome.reason === 'dropped') && target.mode !== 'stdio' && !NEVER_REACHED.test(outcome.message))
      return {
        cause: `${where} answered, but the server's stream ended before its answer (${outcome.message}).`,
        fix: 'The server dropped the connection mid-answer: check its log for a crash, or a proxy or timeout in front of it cutting the stream.',
      };
    if (outcome.reason === 'network' && target.mode !== 'stdio') {
      const cross = originOf(where, target.pageOrigin) !== target.pageOrigin;
      if (target.mode === 'direct' && cross)
        return {
          cause: `The browser could not reach ${where} ("Failed to fetch"): either nothing is listening there, or the server does not allow this page's origin (CORS). A browser cannot tell which.`,
          fix: 'Choose "Auto" or "Via Loupe proxy": the proxy needs no CORS and tells a dead server from a refusal.',
        };
      return { cause: `Nothing answered at ${where}.`, fix: 'Start the server, or check the host and port in the URL.' };
    }
    if (target.mode === 'stdio') return { cause: outcome.message, fix: 'Check the command line: the program must be installed and speak MCP on stdin/stdout.' };
  }
  const status = outcome.type === 'invalid' || outcome.type === 'error' ? outcome.httpStatus : undefined;
  if (status === 404 || status === 405)
    return { cause: `${where} answered HTTP ${status}: there is no MCP endpoint at this path.`, fix: 'Check the path: servers often serve MCP at /mcp.' };
  if (outcome.type === 'invalid' && status !== undefined)
    return { cause: `${where} answered HTTP ${status} without JSON-RPC: ${outcome.reason}.`, fix: 'Check that the URL is an MCP Streamable HTTP endpoint.' };
  return { cause: describeOutcome(outcome), fix: 'Check the URL, the era and the server’s log.' };
}
