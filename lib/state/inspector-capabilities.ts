import { EXT, type ClientCapabilities } from '../protocol';

/** What the inspector declares: it can answer forms, URL elicitation, sampling and roots, and render apps. */
export const INSPECTOR_CAPABILITIES: ClientCapabilities = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: {},
  extensions: { [EXT.ui]: { mimeTypes: ['text/html;profile=mcp-app'] } },
};

/** The inspector's capabilities without the MCP Apps extension (servers then send text fallbacks). */
export function withoutApps(caps: ClientCapabilities): ClientCapabilities {
  const { [EXT.ui]: _ui, ...extensions } = caps.extensions ?? {};
  return { ...caps, extensions };
}
