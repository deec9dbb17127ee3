import { HEADER, NAME_SOURCE } from './constants';

/**
 * Header rules of 2026-07-28 (SEP-2243): `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*` and the
 * `=?base64?...?=` sentinel for values that are not plain visible ASCII.
 */

const SENTINEL = /^=\?base64\?(.*)\?=$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** RFC 9110 token characters, for `x-mcp-header` names. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** Whether a header value can travel literally (visible ASCII, inner spaces, no edge whitespace). */
export function isPlainHeaderValue(value: string): boolean {
  if (value.length === 0) return true;
  if (/^\s|\s$/.test(value)) return false;
  if (!/^[\x20-\x7e]*$/.test(value)) return false;
  return !SENTINEL.test(value);
}

/** Encode a value for `Mcp-Name` / `Mcp-Param-*`, wrapping it in the base64 sentinel when needed. */
function encodeHeaderValue(value: string): string {
  return isPlainHeaderValue(value) ? value : `=?base64?${toBase64(value)}?=`;
}

/** Result of decoding a header value. */
type DecodedHeader = { ok: true; value: string } | { ok: false; reason: string };

/** Decode a header value: sentinel-wrapped base64 (validated strictly) or literal. */
export function decodeHeaderValue(raw: string): DecodedHeader {
  const value = raw.trim();
  const m = SENTINEL.exec(value);
  if (!m) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: this pattern exists to reject control characters in a header value
    if (/[\x00-\x1f\x7f]/.test(value)) return { ok: false, reason: 'header value contains control characters' };
    return { ok: true, value };
  }
  const b64 = m[1]!; // SENTINEL's one group always takes part in a match
  if (!BASE64.test(b64)) return { ok: false, reason: 'invalid base64 in header value' };
  try {
    const bin = atob(b64);
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return { ok: true, value: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, reason: 'base64 header value is not valid UTF-8' };
  }
}

/** Body value that `Mcp-Name` must mirror for a method, or undefined when the method has none. */
export function expectedNameValue(method: string, params: Record<string, unknown> | undefined): string | undefined {
  // The method comes from the body: `constructor` must not find Object's.
  const field = Object.hasOwn(NAME_SOURCE, method) ? NAME_SOURCE[method] : undefined;
  if (!field) return undefined;
  const v = params?.[field];
  return typeof v === 'string' ? v : undefined;
}

/** Convert a primitive argument to its `Mcp-Param-*` text, or undefined when it must be omitted. */
export function paramHeaderText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** One `x-mcp-header` binding found in a tool's input schema. */
export interface HeaderBinding {
  /** Header suffix (the part after `Mcp-Param-`). */
  header: string;
  /** Path of property names from the arguments object. */
  path: string[];
  type: 'string' | 'integer' | 'boolean';
}

/** Outcome of scanning a tool's inputSchema for `x-mcp-header` annotations. */
type HeaderScan = { ok: true; bindings: HeaderBinding[] } | { ok: false; reason: string };

/**
 * Find every `x-mcp-header` reachable purely through `properties` chains and validate the
 * annotations (non-empty token, primitive type, case-insensitively unique, not under items,
 * combinators or $ref). A client must drop a tool whose scan fails.
 */
export function scanHeaderBindings(inputSchema: unknown): HeaderScan {
  const bindings: HeaderBinding[] = [];
  const seen = new Set<string>();
  const problems: string[] = [];
  const walk = (node: unknown, path: string[], viaPropertiesOnly: boolean) => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    const schema = node as Record<string, unknown>;
    if ('x-mcp-header' in schema) {
      const name = schema['x-mcp-header'];
      const type = schema.type;
      if (!viaPropertiesOnly) problems.push(`x-mcp-header at ${path.join('.') || '(root)'} is not reachable through properties only`);
      else if (typeof name !== 'string' || name.length === 0) problems.push(`x-mcp-header at ${path.join('.')} is empty or not a string`);
      else if (!TOKEN.test(name)) problems.push(`x-mcp-header "${name}" has characters outside RFC 9110 token`);
      else if (type !== 'string' && type !== 'integer' && type !== 'boolean') problems.push(`x-mcp-header "${name}" is on a non-primitive property`);
      else if (seen.has(name.toLowerCase())) problems.push(`x-mcp-header "${name}" is duplicated`);
      else {
        seen.add(name.toLowerCase());
        bindings.push({ header: name, path, type });
      }
    }
    for (const [key, child] of Object.entries(schema)) {
      if (key === 'properties' && child && typeof child === 'object') {
        for (const [prop, sub] of Object.entries(child as Record<string, unknown>)) walk(sub, [...path, prop], viaPropertiesOnly);
      } else if (
        ['items', 'oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', 'additionalProperties', '$defs', 'definitions', 'prefixItems'].includes(key)
      ) {
        const children = Array.isArray(child)
          ? child
          : child && typeof child === 'object' && key !== '$defs' && key !== 'definitions'
            ? [child]
            : Object.values((child ?? {}) as object);
        for (const c of children) walk(c, path, false);
      }
    }
  };
  walk(inputSchema, [], true);
  return problems.length ? { ok: false, reason: problems.join('; ') } : { ok: true, bindings };
}

/** Read a value at a property path. */
export function valueAtPath(obj: unknown, path: string[]): unknown {
  let cur: unknown = obj;
  for (const key of path) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** The headers a conforming client sends for a request. */
export function requestHeaders(
  method: string,
  params: Record<string, unknown> | undefined,
  protocolVersion: string,
  bindings: HeaderBinding[] = [],
): Record<string, string> {
  const h: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    [HEADER.protocolVersion]: protocolVersion,
    [HEADER.method]: method,
  };
  const name = expectedNameValue(method, params);
  if (name !== undefined) h[HEADER.name] = encodeHeaderValue(name);
  if (method === 'tools/call') {
    for (const b of bindings) {
      const text = paramHeaderText(valueAtPath(params?.arguments, b.path));
      if (text !== undefined) h[`${HEADER.paramPrefix}${b.header}`] = encodeHeaderValue(text);
    }
  }
  return h;
}
