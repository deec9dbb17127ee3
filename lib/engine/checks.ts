import type { HeaderBag } from './http-types';
import {
  ERROR,
  HEADER,
  META,
  NAME_SOURCE,
  parseClientCapabilities,
  decodeHeaderValue,
  expectedNameValue,
  paramHeaderText,
  scanHeaderBindings,
  valueAtPath,
  type ClientCapabilities,
} from '../protocol';
import { asRecord } from '../shared/records';
import type { ToolSpec } from '../scenario/schema';
import { fail, type Outcome } from './context';

/**
 * Per-request checks of 2026-07-28, in the order the conformance mock server uses:
 * version header present, required `_meta` keys, header = `_meta` version, supported version,
 * then `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` against the body.
 */

interface MetaCheck {
  version: string;
  caps: ClientCapabilities;
}

/** A missing or malformed required `_meta` key: -32602 with HTTP 400 (the one -32602 case with a fixed status). */
function badMeta(message: string): Outcome {
  return { ...fail(ERROR.invalidParams, message), httpStatus: 400 };
}

/** Validate `_meta` (all transports). */
export function checkMeta(
  params: Record<string, unknown> | undefined,
  versions: { modern: readonly string[]; served: readonly string[] },
  headerVersion?: string | null,
): MetaCheck | Outcome {
  const m = asRecord(params?._meta);
  const version = m?.[META.protocolVersion];
  if (typeof version !== 'string') {
    return badMeta(`Invalid params: _meta["${META.protocolVersion}"] is required and must be a string`);
  }
  const rawCaps = m?.[META.clientCapabilities];
  if (rawCaps === undefined) return badMeta(`Invalid params: _meta["${META.clientCapabilities}"] is required`);
  const caps = parseClientCapabilities(rawCaps);
  if (!caps.success) return badMeta(`Invalid params: _meta["${META.clientCapabilities}"] is not a ClientCapabilities object`);
  if (headerVersion !== undefined && headerVersion !== null && headerVersion.trim() !== version) {
    return fail(ERROR.headerMismatch, `Header mismatch: ${HEADER.protocolVersion} header "${headerVersion}" does not match _meta protocolVersion "${version}"`);
  }
  if (!versions.modern.includes(version)) {
    // data.supported names every version served (2025-11-25 through initialize too), so a client can fall back to one.
    return fail(ERROR.unsupportedProtocolVersion, `Unsupported protocol version: ${version}`, { supported: [...versions.served], requested: version });
  }
  return { version, caps: caps.data };
}

/** Validate the standard and custom headers against the body (HTTP only). */
export function checkHeaders(headers: HeaderBag, method: string, params: Record<string, unknown> | undefined, tool: ToolSpec | undefined): Outcome | undefined {
  const rawMethod = headers.get(HEADER.method);
  if (rawMethod === null) return fail(ERROR.headerMismatch, `Header mismatch: ${HEADER.method} header is required`);
  if (rawMethod.trim() !== method)
    return fail(ERROR.headerMismatch, `Header mismatch: ${HEADER.method} header "${rawMethod.trim()}" does not match body method "${method}"`);

  if (Object.hasOwn(NAME_SOURCE, method)) {
    const expected = expectedNameValue(method, params);
    const raw = headers.get(HEADER.name);
    if (raw === null) {
      if (expected !== undefined) return fail(ERROR.headerMismatch, `Header mismatch: ${HEADER.name} header is required for ${method}`);
    } else if (expected !== undefined) {
      // Without a string in the body there is nothing to mirror: the params check names what is wrong (-32602), not the header.
      const decoded = decodeHeaderValue(raw);
      if (!decoded.ok) return fail(ERROR.headerMismatch, `Header mismatch: ${HEADER.name} ${decoded.reason}`);
      if (decoded.value !== expected) {
        return fail(ERROR.headerMismatch, `Header mismatch: ${HEADER.name} header value '${decoded.value}' does not match body value '${expected}'`);
      }
    }
  }
  if (method === 'tools/call' && tool) return checkParamHeaders(headers, params?.arguments, tool);
  return undefined;
}

/** A tool's header bindings, found once per inputSchema (a scenario's tools do not change) rather than on every call. */
const scans = new WeakMap<object, ReturnType<typeof scanHeaderBindings>>();
function bindingsOf(tool: ToolSpec): ReturnType<typeof scanHeaderBindings> {
  const schema = tool.inputSchema;
  let scan = scans.get(schema);
  if (scan === undefined) {
    scan = scanHeaderBindings(schema);
    scans.set(schema, scan);
  }
  return scan;
}

function checkParamHeaders(headers: HeaderBag, args: unknown, tool: ToolSpec): Outcome | undefined {
  const scan = bindingsOf(tool);
  if (!scan.ok) return undefined;
  for (const b of scan.bindings) {
    const headerName = `${HEADER.paramPrefix}${b.header}`;
    const bodyText = paramHeaderText(valueAtPath(args, b.path));
    const raw = headers.get(headerName);
    if (bodyText === undefined) continue;
    if (raw === null) return fail(ERROR.headerMismatch, `Header mismatch: ${headerName} header is required because the argument is present in the body`);
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) return fail(ERROR.headerMismatch, `Header mismatch: ${headerName} ${decoded.reason}`);
    const same = b.type === 'integer' ? /^-?\d+$/.test(decoded.value) && Number(decoded.value) === Number(bodyText) : decoded.value === bodyText;
    if (!same) return fail(ERROR.headerMismatch, `Header mismatch: ${headerName} header value '${decoded.value}' does not match body value '${bodyText}'`);
  }
  return undefined;
}
