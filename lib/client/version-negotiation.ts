import { DiscoverResultSchema, ERROR, LEGACY_VERSIONS, META, UnsupportedVersionDataSchema, type ClientCapabilities, type Implementation } from '../protocol';
import type { Connection } from './connection-types';
import type { RequestOutcome } from './results';

/**
 * What the connection core reads out of the server's handshake answers: the version to retry
 * with after a -32022, the 2025-era version a dual-era server points at, and the server facts a
 * server/discover result carries. Pure, so the connection keeps only the sequencing.
 */

/** Whether `version` is one of the 2025-era versions (spoken through the initialize handshake). */
export const isLegacyVersion = (version: string) => (LEGACY_VERSIONS as readonly string[]).includes(version);

/** The first of our `supported` versions that a -32022's data names, or undefined when there is none. */
export function negotiatedVersion(data: unknown, supported: readonly string[]): string | undefined {
  const d = UnsupportedVersionDataSchema.safeParse(data);
  if (!d.success) return undefined;
  return supported.find((v) => d.data.supported.includes(v));
}

/** A -32022 naming only 2025-era versions is a dual-era answer pointing at the handshake: the version to initialize with. */
function dualEraLegacyVersion(data: unknown, supported: readonly string[]): string | undefined {
  const d = UnsupportedVersionDataSchema.safeParse(data);
  if (!d.success || d.data.supported.some((v) => !isLegacyVersion(v))) return undefined;
  return supported.find((v) => d.data.supported.includes(v));
}

/** Capabilities as the 2025-era initialize carries them (no `extensions`). */
export function legacyCapabilities(caps: ClientCapabilities): Record<string, unknown> {
  const { extensions: _e, ...rest } = caps;
  return rest;
}

/** The server facts in a server/discover result. */
export function serverFromDiscover(result: Record<string, unknown>): Connection['server'] {
  const r = result as {
    supportedVersions?: string[];
    capabilities?: Record<string, unknown>;
    instructions?: string;
    _meta?: Record<string, unknown>;
    serverInfo?: Implementation;
  };
  // serverInfo moved to the result's _meta; some servers still put it in the body.
  const info = (r._meta?.[META.serverInfo] as Implementation | undefined) ?? r.serverInfo;
  return { info, capabilities: r.capabilities, supportedVersions: r.supportedVersions, instructions: r.instructions };
}

/** The modern errors (2026-07-28) that identify a modern server: fix and retry, never fall back. */
const MODERN_ERRORS = new Set<number>([ERROR.headerMismatch, ERROR.missingRequiredClientCapability, ERROR.unsupportedProtocolVersion]);

/**
 * What the answer to the `server/discover` probe says about the server's era: `modern` only for
 * a valid DiscoverResult or a recognised modern error (-32020/-32021/-32022, or -32601 with HTTP
 * 404); `auth` for HTTP 401 (credentials first, the era is still unknown); `failed` when nothing
 * usable came back (the caller reports it); anything else is `legacy`, with the reason.
 */
/**
 * What the server/discover probe says about the server. `expected`: the refusal a 2025-11-25
 * server gives a method it does not know (a JSON-RPC error, or an HTTP 4xx), the ordinary way to
 * the handshake and not worth a warning; anything else (a timeout, a result that is no
 * DiscoverResult, a 5xx) falls back too, with a warning saying why.
 */
type ProbeVerdict = { era: 'modern' } | { era: 'legacy'; reason: string; version?: string; expected?: boolean } | { era: 'auth' } | { era: 'failed' };

export function probeVerdict(out: RequestOutcome, supported: readonly string[]): ProbeVerdict {
  // A -32022 naming only 2025-era versions is a dual-era answer pointing at the handshake (with that version).
  const pointed = out.type === 'error' && out.error.code === ERROR.unsupportedProtocolVersion ? dualEraLegacyVersion(out.error.data, supported) : undefined;
  if (pointed) return { era: 'legacy', reason: 'the server names only 2025-era versions', version: pointed };
  if (needsAuthorization(out)) return { era: 'auth' };
  if (out.type === 'complete') {
    const d = DiscoverResultSchema.safeParse(out.result);
    if (d.success) return { era: 'modern' };
    const issue = d.error.issues[0];
    return { era: 'legacy', reason: `its answer is not a DiscoverResult (${issue ? `${issue.path.join('.') || 'result'}: ${issue.message}` : 'invalid'})` };
  }
  if (out.type === 'error' && (MODERN_ERRORS.has(out.error.code) || (out.error.code === ERROR.methodNotFound && out.httpStatus === 404)))
    return { era: 'modern' };
  // A stdio server that never answers the probe is legacy (spec: "any other error or timeout").
  if (out.type === 'failure' && out.reason !== 'timeout') return { era: 'failed' };
  const status = out.type === 'error' || out.type === 'invalid' ? out.httpStatus : undefined;
  return {
    era: 'legacy',
    expected: out.type === 'error' || (status !== undefined && status >= 400 && status < 500),
    reason:
      out.type === 'error'
        ? `error ${out.error.code}: ${out.error.message}`
        : out.type === 'failure'
          ? out.message
          : out.type === 'invalid'
            ? out.reason
            : out.type,
  };
}

/** Whether an answer is the server asking for credentials (HTTP 401). */
function needsAuthorization(out: RequestOutcome): boolean {
  return (out.type === 'error' || out.type === 'invalid') && out.httpStatus === 401;
}

/** The outcome to report for a 401: authorization is required, and falling back would not help. */
export function authorizationRequired(out: RequestOutcome, target: string): RequestOutcome | undefined {
  if (!needsAuthorization(out)) return undefined;
  return {
    type: 'failure',
    reason: 'auth',
    message: `authorization required: ${target} answered HTTP 401 (authorize with --auth, or send a token with --token)`,
  };
}

/** A modern version a -32022 answer to `initialize` names that we speak: the way forward from a 2025-era guess. */
export function modernVersionFrom(data: unknown, supported: readonly string[]): string | undefined {
  const d = UnsupportedVersionDataSchema.safeParse(data);
  if (!d.success) return undefined;
  return supported.find((v) => !isLegacyVersion(v) && d.data.supported.includes(v));
}
