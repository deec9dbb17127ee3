import { JsonRpcRequestSchema, type JsonRpcRequest } from '../protocol';

/**
 * The JSON-RPC request envelope, checked by hand for the shape nearly every request has, with
 * zod deciding everything else. zod's object and record parsing allocated more than the rest of
 * the envelope's handling. The fast check only accepts (never rejects) and builds the same
 * value zod builds: the four known keys in order, `params` copied without a `__proto__` key.
 * A property test holds it to zod.
 */

const KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/** The request zod would produce, or undefined when the shape is not the common one. */
function fastRequest(body: unknown): JsonRpcRequest | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  for (const k in b) if (!KEYS.has(k) || !Object.hasOwn(b, k)) return undefined;
  const { id, method, params } = b;
  if (b.jsonrpc !== '2.0' || typeof method !== 'string' || method.length === 0) return undefined;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (!Object.hasOwn(b, 'params')) return { jsonrpc: '2.0', id: id as string | number, method };
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const copy: Record<string, unknown> = {};
  for (const k of Object.keys(params)) if (k !== '__proto__') copy[k] = (params as Record<string, unknown>)[k];
  return { jsonrpc: '2.0', id: id as string | number, method, params: copy };
}

/** `JsonRpcRequestSchema.safeParse`, answered without zod for the common shape. */
export function parseRequestEnvelope(body: unknown): ReturnType<typeof JsonRpcRequestSchema.safeParse> {
  const data = fastRequest(body);
  return data ? { success: true, data } : JsonRpcRequestSchema.safeParse(body);
}
