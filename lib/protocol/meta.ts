import { z } from 'zod';

/** `Implementation` (clientInfo / serverInfo). */
export const ImplementationSchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  websiteUrl: z.string().optional(),
});
export type Implementation = z.infer<typeof ImplementationSchema>;

const Obj = z.record(z.string(), z.unknown());

/** Capabilities a client declares on each 2026-07-28 request. */
export const ClientCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), Obj).optional(),
  roots: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  sampling: z.looseObject({ context: Obj.optional(), tools: Obj.optional() }).optional(),
  elicitation: z.looseObject({ form: Obj.optional(), url: Obj.optional() }).optional(),
  extensions: z.record(z.string(), Obj).optional(),
});
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** Capabilities a server advertises in `server/discover`. */
export const ServerCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), Obj).optional(),
  logging: Obj.optional(),
  completions: Obj.optional(),
  prompts: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  resources: z.looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() }).optional(),
  tools: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  extensions: z.record(z.string(), Obj).optional(),
});

/** The syslog levels of notifications/message and `_meta` logLevel, least severe first. */
export const LoggingLevelSchema = z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
export type LoggingLevel = z.infer<typeof LoggingLevelSchema>;

/** Whether a `_meta` key uses a reserved prefix (second label `modelcontextprotocol` or `mcp`). */
export function isReservedMetaKey(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const labels = key.slice(0, slash).split('.');
  return labels[1] === 'modelcontextprotocol' || labels[1] === 'mcp';
}

/** Whether the request declared the extension `id` in this request's capabilities. */
export function declaresExtension(caps: ClientCapabilities | undefined, id: string): boolean {
  const ext = caps?.extensions;
  return !!ext && typeof ext === 'object' && Object.hasOwn(ext, id);
}

/** Elicitation modes the client declared; `{}` means form only. */
export function elicitationModes(caps: ClientCapabilities | undefined): { form: boolean; url: boolean } {
  const e = caps?.elicitation;
  if (!e) return { form: false, url: false };
  const hasForm = e.form !== undefined;
  const hasUrl = e.url !== undefined;
  if (!hasForm && !hasUrl) return { form: true, url: false };
  return { form: hasForm, url: hasUrl };
}
