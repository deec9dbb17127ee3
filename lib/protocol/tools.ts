import { z } from 'zod';

/** Tools as they appear in 2026-07-28 `tools/list` results. */

const ToolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

/** A tool of a tools/list result. */
export const ToolSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
  outputSchema: z.looseObject({ type: z.literal('object') }).optional(),
  annotations: ToolAnnotationsSchema.optional(),
  icons: z.array(z.unknown()).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type Tool = z.infer<typeof ToolSchema>;
