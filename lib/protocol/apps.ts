import { z } from 'zod';
import { asRecord } from '../shared/records';

/**
 * The wire of MCP Apps (`io.modelcontextprotocol/ui`): the tool binding (`_meta.ui` on a tool),
 * the UI resource metadata (`_meta.ui` on a `ui://` resource) and the host's rule for tool
 * calls that come from a view. Shapes follow ext-apps 2026-01-26 (`McpUiToolMeta`,
 * `McpUiResourceMeta`).
 */

/** The only MIME type a UI resource may have. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The deprecated flat tool key some servers still send instead of `_meta.ui.resourceUri`. */
const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';
/** Who may call a tool: the model (the agent) and/or an app view of the same server. */
const ToolVisibilitySchema = z.array(z.enum(['model', 'app']));
type ToolVisibility = z.infer<typeof ToolVisibilitySchema>;
/** Visibility when a tool declares none. */
const DEFAULT_VISIBILITY: ToolVisibility = ['model', 'app'];

/** The CSP domain lists a UI resource declares; absent or empty means none allowed. */
const UiCspSchema = z.looseObject({
  connectDomains: z.array(z.string()).optional(),
  resourceDomains: z.array(z.string()).optional(),
  frameDomains: z.array(z.string()).optional(),
  baseUriDomains: z.array(z.string()).optional(),
});
export type UiCsp = z.infer<typeof UiCspSchema>;
/** The four list names, in the order hosts show them. */
export const CSP_LISTS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/** Browser features a view asks for; the host grants them through the iframe `allow` attribute. */
const UiPermissionsSchema = z.looseObject({
  camera: z.object({}).optional(),
  microphone: z.object({}).optional(),
  geolocation: z.object({}).optional(),
  clipboardWrite: z.object({}).optional(),
});
type UiPermissions = z.infer<typeof UiPermissionsSchema>;

/** `_meta.ui` of a UI resource (on the resources/read content item, or the resources/list entry). */
export const UiResourceMetaSchema = z.looseObject({
  csp: UiCspSchema.optional(),
  permissions: UiPermissionsSchema.optional(),
  domain: z.string().optional(),
  prefersBorder: z.boolean().optional(),
});
export type UiResourceMeta = z.infer<typeof UiResourceMetaSchema>;

/** Permission policy feature names, by permission key. */
const FEATURE: Record<keyof UiPermissions & string, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** The granted permission keys of a resource, known ones only. */
export function grantedPermissions(permissions: unknown): (keyof typeof FEATURE)[] {
  const p = asRecord(permissions);
  if (!p) return [];
  return (Object.keys(FEATURE) as (keyof typeof FEATURE)[]).filter((k) => asRecord(p[k]) !== undefined);
}

/** The iframe `allow` attribute for the granted permissions (`"camera; clipboard-write"`). */
export function allowAttribute(permissions: unknown): string {
  return grantedPermissions(permissions)
    .map((k) => FEATURE[k])
    .join('; ');
}

/** A tool's app binding, read from `_meta.ui` first and then the legacy flat key. */
interface ToolUi {
  /** The `ui://` resource to render, or undefined when the tool has none. */
  resourceUri?: string;
  /** Set when the tool names a resource that is not a `ui://` URI (hosts must not render it). */
  invalidUri?: string;
  visibility: ToolVisibility;
}

/** Read a tool's app binding (`_meta.ui.resourceUri`, else `_meta["ui/resourceUri"]`) and visibility. */
export function toolUiOf(tool: { _meta?: unknown } | undefined): ToolUi {
  const meta = asRecord(tool?._meta);
  const ui = asRecord(meta?.ui);
  const raw = ui?.resourceUri ?? meta?.[LEGACY_RESOURCE_URI_KEY];
  const vis = ToolVisibilitySchema.safeParse(ui?.visibility);
  const visibility = vis.success ? vis.data : DEFAULT_VISIBILITY;
  if (raw === undefined) return { visibility };
  if (typeof raw === 'string' && raw.startsWith('ui://')) return { resourceUri: raw, visibility };
  return { invalidUri: String(raw), visibility };
}

/** Why a view may not call a tool, or undefined when it may. */
type AppCallRefusal = { code: 'unknown-tool' | 'not-app-visible'; message: string };

/**
 * The host rule for `tools/call` from a view: the tool must be one of the tools of the server
 * that served the view (`serverTools`, that server's tools/list) and its visibility must include
 * "app". Anything else is refused before it reaches a server.
 */
export function checkAppToolCall(serverTools: readonly { name: string; _meta?: unknown }[], name: unknown): AppCallRefusal | undefined {
  if (typeof name !== 'string' || !name) return { code: 'unknown-tool', message: 'Refused: tools/call from the app names no tool' };
  const tool = serverTools.find((t) => t.name === name);
  if (!tool) return { code: 'unknown-tool', message: `Refused: "${name}" is not a tool of the server that served this app` };
  const { visibility } = toolUiOf(tool);
  if (!visibility.includes('app')) {
    return { code: 'not-app-visible', message: `Refused: tool "${name}" has visibility ${JSON.stringify(visibility)}, which does not include "app"` };
  }
  return undefined;
}
