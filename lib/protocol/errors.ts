import { z } from 'zod';

/** JSON-RPC and MCP error codes, with the HTTP status each gets on Streamable HTTP. */
export const ERROR = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  headerMismatch: -32020,
  missingRequiredClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
} as const;

/**
 * Loupe's demo answers this when its replay store (or one caller's share of it) is full. 2026-07-28
 * gives -32020..-32099 to the spec alone and asks that codes for purposes it does not define sit
 * outside the JSON-RPC reserved range (-32768..-32000), so this one does; it was -32023, hence the
 * digits kept for anyone searching old logs.
 */
export const REPLAY_STORE_FULL = -31023;

/** Codes defined by 2026-07-28 inside the reserved range -32020..-32099. */
const DEFINED_RESERVED_CODES: readonly number[] = [ERROR.headerMismatch, ERROR.missingRequiredClientCapability, ERROR.unsupportedProtocolVersion];

/** Retired codes that must never be reused (still accepted from old servers). */
export const RETIRED_CODES = { resourceNotFound: -32002, urlElicitationRequired: -32042 } as const;

/** Pre-renumber draft codes an inspector may meet in the wild. */
export const DRAFT_CODES: Readonly<Record<number, string>> = {
  [-32001]: 'HeaderMismatch (pre-renumber draft code; final is -32020)',
  [-32003]: 'MissingRequiredClientCapability (pre-renumber draft code; final is -32021)',
  [-32004]: 'UnsupportedProtocolVersion (pre-renumber draft code; final is -32022)',
};

/** A JSON-RPC error object (`error` of a response). */
export const JsonRpcErrorObjectSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type JsonRpcErrorObject = z.infer<typeof JsonRpcErrorObjectSchema>;

/** HTTP status for a JSON-RPC error code on Streamable HTTP. Unlisted codes answer 200. */
export function httpStatusForError(code: number): number {
  switch (code) {
    case ERROR.methodNotFound:
      return 404;
    case ERROR.headerMismatch:
    case ERROR.missingRequiredClientCapability:
    case ERROR.unsupportedProtocolVersion:
    case ERROR.parseError:
    case ERROR.invalidRequest:
      return 400;
    default:
      return 200;
  }
}

/** Whether a code sits in the reserved range without being defined there. */
export function isUndefinedReservedCode(code: number): boolean {
  return code <= -32020 && code >= -32099 && !DEFINED_RESERVED_CODES.includes(code);
}

/** `data` of -32022. */
export const UnsupportedVersionDataSchema = z.object({ supported: z.array(z.string()), requested: z.string() });
