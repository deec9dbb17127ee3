import { ERROR, HEADER, LEGACY_VERSIONS, META, decodeHeaderValue, expectedNameValue, NAME_SOURCE, type JsonRpcRequest } from '../protocol';
import { asRecord } from '../shared/records';
import { fail, type Outcome, type RequestContext } from './context';
import type { HeaderBag } from './http-types';

/**
 * Which protocol era serves a request: the body decides, as the spec's dual-era rules and the
 * SDK v2 server say. A request whose `_meta` claims a protocol version is modern (its header
 * must then agree, which the modern checks enforce with -32020); an `initialize` without a
 * modern claim is legacy and opens a 2025-11-25 session (stdio process or HTTP session); a
 * request without a claim is legacy when it belongs to such a session, names a legacy version
 * in its header, or (HTTP) names none at all on a server that serves 2025-11-25.
 */

type Era = RequestContext['era'];

const isLegacyVersion = (v: string | undefined) => v !== undefined && (LEGACY_VERSIONS as readonly string[]).includes(v);

/** Whether `_meta` carries a protocol version claim (valid or not). */
function claimOf(req: JsonRpcRequest): { present: boolean; version?: string } {
  const meta = asRecord(req.params?._meta);
  if (!meta || !(META.protocolVersion in meta)) return { present: false };
  const v = meta[META.protocolVersion];
  return { present: true, ...(typeof v === 'string' ? { version: v } : {}) };
}

/** What the pipeline knows when it picks an era. */
interface EraInput {
  /** HTTP headers; absent on stdio and in memory. */
  headers?: HeaderBag;
  /** An `initialize` already happened on this stdio process or HTTP session. */
  inSession: boolean;
  /** The scenario also serves 2025-11-25. */
  servesLegacy: boolean;
}

/** The era of a request, or the 400 that header and body disagreeing earns. */
export function eraOf(req: JsonRpcRequest, input: EraInput): Era | Outcome {
  const claim = claimOf(req);
  const header = input.headers?.get(HEADER.protocolVersion)?.trim() || undefined;
  const headerModern = header !== undefined && !isLegacyVersion(header);
  if (req.method === 'initialize' && !(claim.version !== undefined && !isLegacyVersion(claim.version))) {
    if (headerModern) {
      return {
        ...fail(ERROR.headerMismatch, `Header mismatch: initialize (the 2025-11-25 handshake) was sent with ${HEADER.protocolVersion} "${header}"`),
        httpStatus: 400,
      };
    }
    return 'legacy';
  }
  if (claim.present) return isLegacyVersion(claim.version) && !headerModern ? 'legacy' : 'modern';
  if (headerModern) return 'modern';
  if (isLegacyVersion(header) || input.inSession) return 'legacy';
  // No claim and no header: an HTTP request of a 2025-11-25 client that has no session; a modern-only
  // server keeps answering it as modern (-32020, the header is required).
  return input.headers && input.servesLegacy ? 'legacy' : 'modern';
}

/**
 * A 2025-11-25 client sends no `Mcp-Method` or `Mcp-Name`; when a request carries them anyway
 * they must still name what the body does (an intermediary may have routed on them).
 */
export function legacyHeaderMismatch(req: JsonRpcRequest, headers: HeaderBag | undefined): Outcome | undefined {
  const method = headers?.get(HEADER.method)?.trim();
  const mismatch = (what: string) => ({ ...fail(ERROR.headerMismatch, `Header mismatch: ${what}`), httpStatus: 400 });
  if (method !== undefined && method !== req.method) return mismatch(`${HEADER.method} header "${method}" does not match body method "${req.method}"`);
  const name = headers?.get(HEADER.name);
  if (name === null || name === undefined || !Object.hasOwn(NAME_SOURCE, req.method)) return undefined;
  const decoded = decodeHeaderValue(name);
  const expected = expectedNameValue(req.method, req.params);
  if (!decoded.ok || decoded.value !== expected)
    return mismatch(`${HEADER.name} header value '${decoded.ok ? decoded.value : name}' does not match body value '${expected ?? ''}'`);
  return undefined;
}
