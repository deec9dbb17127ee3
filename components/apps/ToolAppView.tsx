'use client';

import { useInspector } from '@/components/inspector/use-inspector';
import { fingerprint } from '@/lib/shared/fingerprint';
import { toolUiOf, type Tool } from '@/lib/protocol';
import { absoluteUrl, configHeaders } from '@/lib/state/connection-slice';
import { AppView } from './AppView';
import type { AppCallOutcome } from './use-app-host';

/**
 * The app view of a tool call, wired to the inspector's connection: resources/read and the
 * view's tool calls go through the live session (so they land on the timeline like any other
 * request), bridge messages are recorded on the same transport (the timeline's app lane), and
 * the cache identity is the endpoint, the server's name@version and a fingerprint of the
 * credentials. Renders nothing for a tool without a `ui://` view (e.g. when the inspector did
 * not declare the ui extension, the server sends no `_meta.ui`).
 *
 *   <ToolAppView key={callNumber} tool={tool} input={args} outcome={done ? outcome : undefined} />
 */
export function ToolAppView({ tool, input, outcome }: { tool: Tool; input: Record<string, unknown>; outcome?: AppCallOutcome }) {
  const session = useInspector((s) => s.connection.session);
  const transport = useInspector((s) => s.connection.transport);
  const tools = useInspector((s) => s.connection.tools);
  const info = useInspector((s) => s.connection.server?.info);
  const config = useInspector((s) => s.connection.config);
  const ui = toolUiOf(tool);
  if (!session || (!ui.resourceUri && !ui.invalidUri)) return null;
  const auth = configHeaders(config).Authorization;
  return (
    <AppView
      tool={tool}
      tools={tools}
      input={input}
      outcome={outcome}
      server={{ id: absoluteUrl(config.url), name: info?.name, version: info?.version, ...(auth ? { principal: fingerprint(auth) } : {}) }}
      readResource={(uri) => session.request('resources/read', { uri })}
      callTool={(name, args) => session.callTool(name, args)}
      onBridgeMessage={(frame) => transport?.record(frame)}
    />
  );
}
