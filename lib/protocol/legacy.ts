import { z } from 'zod';
import { ImplementationSchema } from './meta';

/** The 2025-11-25 `initialize` handshake, served to older clients. */

export const InitializeParamsSchema = z.looseObject({
  protocolVersion: z.string(),
  capabilities: z.record(z.string(), z.unknown()),
  clientInfo: ImplementationSchema,
});
export type InitializeParams = z.infer<typeof InitializeParamsSchema>;

export const InitializeResultSchema = z.looseObject({
  protocolVersion: z.string(),
  capabilities: z.record(z.string(), z.unknown()),
  serverInfo: ImplementationSchema,
  instructions: z.string().optional(),
});
export type InitializeResult = z.infer<typeof InitializeResultSchema>;
