import { blockedPortReason } from '../shared/blocked-ports';
import { CliFailure, UsageError } from './errors';

/**
 * The network vocabulary of the commands: URLs and ports from the command line, and the few
 * words a person needs when a server cannot be reached or a port cannot be bound, instead of
 * undici's `fetch failed` or Node's `listen EADDRINUSE` stack.
 */

/** Node error codes → what they mean to someone running the command. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'the connection was closed',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host name',
};

function codeOf(e: unknown): string | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // A host with several addresses fails with one error per address.
  const errors = (e as { errors?: unknown }).errors;
  return Array.isArray(errors) ? errors.map(codeOf).find(Boolean) : undefined;
}

/** Why a fetch of `url` failed, in a few words: `connection refused`, `host not found`, ... */
export function describeNetworkError(e: unknown, url?: string): string {
  const cause = e instanceof Error && e.cause !== undefined ? e.cause : e;
  const code = codeOf(cause) ?? codeOf(e);
  if (code && REASONS[code]) return REASONS[code];
  const message = cause instanceof Error ? cause.message : e instanceof Error ? e.message : String(e);
  // undici refuses the fetch standard's "bad ports" (1, 7, 9, 6000, ...) before connecting.
  if (message === 'bad port') return `fetch refuses port ${url ? new URL(url).port : 'this port'} (one of the ports browsers block)`;
  return message;
}

/** The fetch a command uses: its network failures carry a readable reason, kept for the report. */
export function trackedFetch(): { fetch: (input: string, init: RequestInit) => Promise<Response>; lastFailure: () => string | undefined } {
  let failure: string | undefined;
  return {
    fetch: async (input, init) => {
      try {
        const res = await globalThis.fetch(input, init);
        failure = undefined;
        return res;
      } catch (e) {
        if (init.signal?.aborted) throw e;
        failure = describeNetworkError(e, input);
        throw new Error(failure, { cause: e });
      }
    },
    lastFailure: () => failure,
  };
}

/** An http(s) URL from a flag, or a usage error naming the flag. */
export function parseHttpUrl(text: string, flag = '--url'): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${flag} "${text}" is not a URL (e.g. http://127.0.0.1:3001/mcp)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be http(s), not ${url.protocol}`);
  return url;
}

/** A port from `--port`: an integer from 0 (any free port) to 65535. */
export function parsePort(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(n) || n > 65535)
    throw new UsageError(`--port must be an integer from 0 to 65535 (0 picks any free port), not "${text}"`);
  return n;
}

/**
 * Say on stderr that a server now listening on a blocked port is out of reach of browsers and
 * fetch-based clients. Served anyway (a raw-socket client may be the point), but said.
 */
export function warnBlockedPort(command: string, port: number): void {
  const blocked = blockedPortReason(port);
  if (blocked) process.stderr.write(`mcp-loupe ${command}: ${blocked}; curl and raw sockets still do\n`);
}

/** Why a server could not listen on host:port, as a failure to report (exit 1). */
export function listenFailure(e: unknown, host: string, port: number): CliFailure {
  const code = codeOf(e);
  if (code === 'EADDRINUSE') return new CliFailure(`port ${port} is in use; pass --port 0 for any free port`);
  if (code === 'EACCES') return new CliFailure(`not allowed to listen on port ${port} (ports below 1024 need privileges); pass --port 0 for any free port`);
  if (code === 'EADDRNOTAVAIL') return new CliFailure(`cannot listen on ${host}: no interface of this machine has that address`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new CliFailure(`cannot listen on ${host}: host not found`);
  return new CliFailure(`cannot listen on ${host}:${port}: ${e instanceof Error ? e.message : String(e)}`);
}
