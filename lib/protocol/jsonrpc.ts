import { z } from 'zod';
import { JsonRpcErrorObjectSchema } from './errors';

/** JSON-RPC request id: string or integer, never null. */
export const RequestIdSchema = z.union([z.string(), z.number().int()]);
export type RequestId = z.infer<typeof RequestIdSchema>;

const ParamsSchema = z.record(z.string(), z.unknown());

export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema,
  method: z.string().min(1),
  params: ParamsSchema.optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

export const JsonRpcNotificationSchema = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1),
  params: ParamsSchema.optional(),
});
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;

export const JsonRpcResultResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema,
  result: z.record(z.string(), z.unknown()),
});
export type JsonRpcResultResponse = z.infer<typeof JsonRpcResultResponseSchema>;

export const JsonRpcErrorResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema.nullable().optional(),
  error: JsonRpcErrorObjectSchema,
});
export type JsonRpcErrorResponse = z.infer<typeof JsonRpcErrorResponseSchema>;

export const JsonRpcResponseSchema = z.union([JsonRpcResultResponseSchema, JsonRpcErrorResponseSchema]);
export type JsonRpcResponse = z.infer<typeof JsonRpcResponseSchema>;

/** Any single JSON-RPC message. */
export const JsonRpcMessageSchema = z.union([JsonRpcRequestSchema, JsonRpcNotificationSchema, JsonRpcResultResponseSchema, JsonRpcErrorResponseSchema]);
export type JsonRpcMessage = z.infer<typeof JsonRpcMessageSchema>;

/** Classify a parsed message by its shape. */
export function messageKind(m: JsonRpcMessage): 'request' | 'notification' | 'result' | 'error' {
  if ('method' in m) return 'id' in m && m.id !== undefined ? 'request' : 'notification';
  return 'error' in m ? 'error' : 'result';
}

/** Build a result response. */
export function resultResponse(id: RequestId, result: Record<string, unknown>): JsonRpcResultResponse {
  return { jsonrpc: '2.0', id, result };
}

/** Build an error response; `id` is null when the request id could not be read. */
export function errorResponse(id: RequestId | null, error: { code: number; message: string; data?: unknown }): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error };
}
