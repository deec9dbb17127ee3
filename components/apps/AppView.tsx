'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import { allowAttribute, buildAppCsp, toolUiOf, type Tool } from '@/lib/protocol';
import type { BridgeFrame } from '@/lib/client/app-bridge-transport';
import type { RequestOutcome } from '@/lib/client/results';
import { sandboxProxyUrl } from '@/lib/client/sandbox-origin';
import { sandboxOriginFor } from '@/lib/protocol/sandbox-origin';
import { displayJson } from '@/lib/shared/display-json';
import { AppFacts } from './AppFacts';
import { BridgeLog } from './BridgeLog';
import { FloodNotice } from './FloodNotice';
import { LinkConsent } from './LinkConsent';
import { useAppHost, type AppCallOutcome } from './use-app-host';
import { useAppResource } from './use-app-resource';

/**
 * An MCP App view for one tool call, with its bridge log beside it.
 *
 * Integration (the tools panel renders this under a result when the tool has
 * `_meta.ui.resourceUri`; see `toolUiOf`):
 *
 *   <AppView tool={tool} tools={connection.tools} input={args} outcome={outcome}
 *     server={{ id: config.url, name: server.info?.name, version: server.info?.version }}
 *     readResource={(uri) => session.request('resources/read', { uri })}
 *     callTool={(name, args) => session.callTool(name, args)}
 *     onBridgeMessage={(frame) => transport.record(frame)} />
 *
 * Mount it when the call starts (`outcome` undefined while it runs) or when it ends; the view gets
 * the input at once and the result (or a cancellation) when `outcome` arrives. Calls the view
 * makes go through `callTool` only if the tool is in `tools` with visibility including "app";
 * every bridge message goes to `onBridgeMessage` as a `kind: 'bridge'` frame (exchangeId
 * `app:<view>`, `errorText` on refusals and errors) and to the bridge log.
 */
interface AppViewProps {
  /** The tool as tools/list gave it; its `_meta.ui` names the view. */
  tool: Tool;
  /** The server's tools/list: tool calls from the view are checked against it. */
  tools: readonly Tool[];
  /** The arguments of the inspector's call. */
  input: Record<string, unknown>;
  /** The call's outcome once it ends; undefined while it runs. */
  outcome?: AppCallOutcome;
  /** Who served the view (cache identity): endpoint URL, serverInfo, and the principal (e.g. token fingerprint). */
  server: { id: string; name?: string; version?: string; principal?: string };
  readResource(uri: string): Promise<RequestOutcome>;
  callTool(name: string, args: Record<string, unknown>): Promise<RequestOutcome>;
  onBridgeMessage?(frame: BridgeFrame): void;
}

/** An MCP App view with its bridge log; see the integration notes above. */
export function AppView(props: AppViewProps) {
  const { tool, server } = props;
  const ui = toolUiOf(tool);
  const frame = useRef<HTMLIFrameElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [origin, setOrigin] = useState<string>();
  useEffect(() => setOrigin(window.location.origin), []);
  const sandboxOrigin = origin ? sandboxOriginFor(origin) : undefined;
  const state = useAppResource(
    ui.resourceUri,
    { server: server.id, serverName: server.name, serverVersion: server.version, principal: server.principal },
    props.readResource,
  );
  const resource = state.phase === 'ready' ? state.resource : undefined;
  const csp = useMemo(() => (resource && origin ? buildAppCsp(resource.meta.csp ?? {}, [origin]) : undefined), [resource, origin]);
  const proxyUrl = resource && origin && sandboxOrigin ? sandboxProxyUrl(sandboxOrigin, origin, resource.meta.csp ?? {}) : undefined;
  const view = useAppHost(frame, box, resource, { sandboxOrigin, proxyUrl }, props);
  const fullscreen = view.displayMode === 'fullscreen';

  if (ui.invalidUri) return <Problem text={`The tool's resourceUri ${JSON.stringify(ui.invalidUri)} is not a ui:// URI; hosts must not render it.`} />;
  if (origin && !sandboxOrigin)
    return <Problem text="Apps need the inspector on a loopback name (127.0.0.1 or localhost): the sandbox runs on the other one." />;
  if (state.phase === 'error') return <Problem text={state.problem} />;
  const status =
    state.phase === 'loading'
      ? 'Reading the resource…'
      : view.paused
        ? 'Paused (flooding the bridge)'
        : view.closed
          ? 'Closed (ui/resource-teardown)'
          : view.initialized
            ? 'Connected (ui/initialize done)'
            : 'Starting the sandbox…';

  return (
    <section
      data-testid="app-view"
      data-tool={tool.name}
      data-state={view.paused ? 'paused' : view.closed ? 'closed' : view.initialized ? 'initialized' : state.phase}
      className="@container space-y-2"
    >
      <header className="flex items-center justify-between gap-2 text-xs">
        <h4 className="font-semibold">
          App view <span className="font-normal text-muted">{view.app?.name ? `${view.app.name} ${view.app.version ?? ''}` : ui.resourceUri}</span>
        </h4>
        <span className="flex items-center gap-2">
          <span data-testid="app-status" className="text-muted">
            {status}
          </span>
          {view.initialized && !view.closed && !view.paused ? (
            <button type="button" data-testid="app-close" onClick={view.close} className="rounded-md border border-border px-2 py-0.5 hover:bg-surface-muted">
              Close app
            </button>
          ) : null}
        </span>
      </header>
      {resource && csp && sandboxOrigin ? (
        <AppFacts resource={resource} csp={csp} cacheHit={state.phase === 'ready' && state.cacheHit} sandboxOrigin={sandboxOrigin} />
      ) : null}
      {view.consent ? <LinkConsent url={view.consent.url} answer={view.consent.answer} /> : null}
      <div className="grid gap-3 @5xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div ref={box} className={fullscreen ? 'fixed inset-0 z-50 flex flex-col bg-background p-3' : 'min-w-0'}>
          {fullscreen ? (
            <button type="button" onClick={() => view.setDisplayMode('inline')} className="mb-2 self-end rounded-md border border-border px-2 py-0.5 text-xs">
              Exit fullscreen
            </button>
          ) : null}
          {view.paused ? (
            <FloodNotice report={view.paused} onResume={view.resume} />
          ) : view.closed ? (
            <p className="rounded-md border border-dashed border-border p-3 text-xs text-muted">The app was torn down; its bridge log stays for reading.</p>
          ) : resource ? (
            <iframe
              ref={frame}
              title={`MCP App: ${ui.resourceUri}`}
              data-testid="app-frame"
              sandbox="allow-scripts allow-same-origin"
              allow={allowAttribute(resource.meta.permissions) || undefined}
              referrerPolicy="no-referrer"
              style={fullscreen ? { flex: 1 } : { height: view.height }}
              className={`w-full rounded-md bg-surface ${resource.meta.prefersBorder === false ? '' : 'border border-border'}`}
            />
          ) : (
            <div className="h-24 animate-pulse rounded-md bg-surface-muted" />
          )}
        </div>
        <div className="min-w-0 space-y-2">
          <BridgeLog key={view.logGeneration} frames={view.frames} />
          {view.modelContext !== undefined ? <Note title="Model context (latest)" value={view.modelContext} testId="app-model-context" /> : null}
          {view.messages.length ? (
            <Note title={`Messages for the chat (${view.messages.length})`} value={view.messages[view.messages.length - 1]} testId="app-messages" />
          ) : null}
        </div>
      </div>
    </section>
  );
}

function Problem({ text }: { text: string }) {
  return (
    <p data-testid="app-view" data-state="error" role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm text-danger">
      {text}
    </p>
  );
}

/**
 * The latest value of something the view sent, folded. Its JSON is made and put in the page only
 * while unfolded: a view may send a 1 MiB model context several times a second, and each one
 * written into a closed <details> cost a stringify and a text node the size of the message.
 */
function Note({ title, value, testId }: { title: string; value: unknown; testId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="rounded-md border border-border bg-surface px-3 py-1.5 text-xs" data-testid={testId} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer font-semibold">{title}</summary>
      {open ? <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all">{displayJson(value)}</pre> : null}
    </details>
  );
}
