import type { z } from 'zod';
import { type ClientCapabilities, ClientCapabilitiesSchema } from './meta';
import { type CallToolParams, CallToolParamsSchema } from './params';

/**
 * Two schemas every `tools/call` goes through, answered by hand for the shape nearly every
 * client sends, with zod deciding everything else: zod's object and record parsing allocated more
 * than the rest of the call's checks. The hand check only accepts (never rejects) and builds the
 * value zod builds: the schema's own keys first in the schema's order, then the others as sent;
 * records and objects copied, other values kept. Anything unusual (a `__proto__` key, an
 * undefined value) goes to zod. A property test holds both to zod (tests/unit/protocol).
 */

type Parsed<T> = { success: true; data: T } | { success: false; error: z.ZodError<T> };

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys zod may treat specially, or values it may drop: the hand check leaves those to zod. */
function ordinary(v: Record<string, unknown>): boolean {
  if (Object.hasOwn(v, '__proto__')) return false;
  for (const k in v) if (v[k] === undefined || !Object.hasOwn(v, k)) return false;
  return true;
}

/** `z.record(z.string(), z.unknown())`: a copy with the same keys and values. */
function fastObj(v: unknown): Record<string, unknown> | undefined {
  if (!isPlain(v) || !ordinary(v)) return undefined;
  const out: Record<string, unknown> = {};
  for (const k in v) out[k] = v[k];
  return out;
}

/** `z.record(z.string(), Obj)`. */
function fastObjRecord(v: unknown): Record<string, Record<string, unknown>> | undefined {
  if (!isPlain(v) || !ordinary(v)) return undefined;
  const out: Record<string, Record<string, unknown>> = {};
  for (const k in v) {
    const inner = fastObj(v[k]);
    if (!inner) return undefined;
    out[k] = inner;
  }
  return out;
}

/**
 * A loose object: `known` keys parsed in their order (absent ones skipped), then the others as
 * sent. undefined when a known key does not pass its check.
 */
function fastLoose(v: unknown, known: readonly string[], check: (key: string, value: unknown) => unknown): Record<string, unknown> | undefined {
  if (!isPlain(v) || !ordinary(v)) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of known) {
    if (!Object.hasOwn(v, key)) continue;
    const parsed = check(key, v[key]);
    if (parsed === undefined) return undefined;
    out[key] = parsed;
  }
  for (const k in v) if (!known.includes(k)) out[k] = v[k];
  return out;
}

const CAPS_KEYS = ['experimental', 'roots', 'sampling', 'elicitation', 'extensions'] as const;
const ROOTS_KEYS = ['listChanged'];
const SAMPLING_KEYS = ['context', 'tools'];
const ELICITATION_KEYS = ['form', 'url'];

function capsMember(key: string, value: unknown): unknown {
  switch (key) {
    case 'experimental':
    case 'extensions':
      return fastObjRecord(value);
    case 'roots':
      return fastLoose(value, ROOTS_KEYS, (_k, b) => (typeof b === 'boolean' ? b : undefined));
    case 'sampling':
      return fastLoose(value, SAMPLING_KEYS, (_k, o) => fastObj(o));
    default:
      return fastLoose(value, ELICITATION_KEYS, (_k, o) => fastObj(o));
  }
}

/** `ClientCapabilitiesSchema.safeParse`, answered without zod for the common shape. */
export function parseClientCapabilities(value: unknown): Parsed<ClientCapabilities> {
  const data = fastLoose(value, CAPS_KEYS, capsMember);
  return data ? { success: true, data: data as ClientCapabilities } : ClientCapabilitiesSchema.safeParse(value);
}

const CALL_KEYS = ['name', 'arguments'];

/** `CallToolParamsSchema.safeParse`, answered without zod for the common shape. */
function fastCallTool(value: unknown): CallToolParams | undefined {
  if (!isPlain(value) || typeof value.name !== 'string') return undefined;
  const data = fastLoose(value, CALL_KEYS, (key, v) => {
    if (key === 'name') return typeof v === 'string' ? v : undefined;
    // Arguments are checked, not copied (null counts as absent and stays null).
    return v === null || isPlain(v) ? v : undefined;
  });
  return data as CallToolParams | undefined;
}

/** The tools/call params parser: zod's schema, with the hand check in front. */
export const CallToolParamsParser = {
  safeParse(value: unknown): Parsed<CallToolParams> {
    const data = fastCallTool(value);
    return data ? { success: true, data } : CallToolParamsSchema.safeParse(value);
  },
};
