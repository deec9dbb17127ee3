import { z } from 'zod';
import { JsonRpcErrorObjectSchema } from './errors';

/** JSON-RPC request id: string or integer, never null. */
const RequestIdSchema = z.union([z.string(), z.number().int()]);
export type RequestId = z.infer<typeof RequestIdSchema>;

const ParamsSchema = z.record(z.string(), z.unknown());

/** A JSON-RPC request: has an id and expects a response. */
export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema,
  method: z.string().min(1),
  params: ParamsSchema.optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

/** A JSON-RPC notification: no id, no response. */
export const JsonRpcNotificationSchema = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1),
  params: ParamsSchema.optional(),
});
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;

const JsonRpcResultResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema,
  result: z.record(z.string(), z.unknown()),
});

const JsonRpcErrorResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema.nullable().optional(),
  error: JsonRpcErrorObjectSchema,
});
type JsonRpcErrorResponse = z.infer<typeof JsonRpcErrorResponseSchema>;

/** A JSON-RPC response: a result or an error for a request id. */
const JsonRpcResponseSchema = z.union([JsonRpcResultResponseSchema, JsonRpcErrorResponseSchema]);
export type JsonRpcResponse = z.infer<typeof JsonRpcResponseSchema>;

/** Any single JSON-RPC message. */
export const JsonRpcMessageSchema = z.union([JsonRpcRequestSchema, JsonRpcNotificationSchema, JsonRpcResultResponseSchema, JsonRpcErrorResponseSchema]);
export type JsonRpcMessage = z.infer<typeof JsonRpcMessageSchema>;

/** Build an error response; `id` is null when the request id could not be read. */
export function errorResponse(id: RequestId | null, error: { code: number; message: string; data?: unknown }): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error };
}
