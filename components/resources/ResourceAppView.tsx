'use client';

import type { Tool } from '@/lib/protocol';
import { ToolAppView } from '@/components/apps/ToolAppView';
import { useInspector } from '@/components/inspector/use-inspector';

/**
 * A `ui://` resource opened in the app view the tools panel uses. The view is hosted for the
 * tool that names this resource (so its calls are checked against that tool's visibility),
 * or for a stand-in without input when no listed tool names it.
 */
export function ResourceAppView({ uri }: { uri: string }) {
  const tools = useInspector((s) => s.connection.tools);
  const owner = tools.find((t) => {
    const ui = t._meta?.ui as { resourceUri?: unknown } | undefined;
    return ui?.resourceUri === uri || t._meta?.['ui/resourceUri'] === uri;
  });
  const tool: Tool = owner ?? { name: `resource ${uri}`, inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: uri } } };
  return (
    <div data-testid="resource-app-view" data-uri={uri}>
      <ToolAppView tool={tool} input={{}} />
    </div>
  );
}
