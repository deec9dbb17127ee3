'use client';

import { useEffect, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { BridgeFrame } from '@/lib/client/app-bridge-transport';
import { createAppHost, type AppHost } from '@/lib/client/app-host';
import type { AppResource } from '@/lib/client/app-resource';
import type { FloodReport } from '@/lib/client/bridge-flood';
import type { RequestOutcome } from '@/lib/client/results';
import type { Tool } from '@/lib/protocol';
import { effectiveTheme } from '@/components/ui/theme';
import { useBridgeLog, type LoggedFrame } from './use-bridge-log';
import { useHostContextSync } from './use-host-context-sync';

/**
 * Runs one view's host side while the component is mounted: creates the AppBridge host for the
 * loaded resource, points the sandbox frame at the proxy page, feeds it the call's input and
 * outcome, follows theme and container size, and tears the view down on unmount.
 */

/** The outcome of the inspector's own call, as the tools panel has it (MRTR may end abandoned). */
export type AppCallOutcome = RequestOutcome | { type: 'abandoned' };

interface AppHostDeps {
  tool: Tool;
  tools: readonly Tool[];
  input: Record<string, unknown>;
  outcome?: AppCallOutcome;
  callTool(name: string, args: Record<string, unknown>): Promise<RequestOutcome>;
  readResource(uri: string): Promise<RequestOutcome>;
  onBridgeMessage?(frame: BridgeFrame): void;
}

interface AppHostView {
  initialized: boolean;
  app?: { name?: string; version?: string };
  height: number;
  displayMode: 'inline' | 'fullscreen';
  frames: LoggedFrame[];
  /** Grows on each Resume: a fresh view's log. */
  logGeneration: number;
  modelContext?: unknown;
  messages: unknown[];
  /** A link the view asked to open, waiting for the user's answer. */
  consent?: { url: string; answer(ok: boolean): void };
  setDisplayMode(mode: 'inline' | 'fullscreen'): void;
  /** Torn down (ui/resource-teardown answered or timed out): the frame is gone. */
  closed: boolean;
  /** Tear the view down the proper way: ui/resource-teardown, wait for the answer, then remove it. */
  close(): void;
  /** The view flooded the bridge: it is unloaded and its messages dropped until `resume()` loads it again. */
  paused?: FloodReport;
  resume(): void;
}

const MIN_HEIGHT = 120;
/** Tallest an inline view may grow (the `maxHeight` of its container dimensions). */
const MAX_INLINE_HEIGHT = 720;
let views = 0;

/** The view gets the theme the page shows: the user's choice (ThemeToggle), else the system's. */
const theme = effectiveTheme;

/** Host one view in `frame` (inside `container`) once its resource and the sandbox URL are known. */
export function useAppHost(
  frame: RefObject<HTMLIFrameElement | null>,
  container: RefObject<HTMLElement | null>,
  resource: AppResource | undefined,
  target: { sandboxOrigin?: string; proxyUrl?: string },
  deps: AppHostDeps,
): AppHostView {
  const latest = useRef(deps);
  latest.current = deps;
  const host = useRef<AppHost | undefined>(undefined);
  const [initialized, setInitialized] = useState(false);
  const [app, setApp] = useState<AppHostView['app']>();
  const [height, setHeight] = useState(240);
  const [displayMode, setMode] = useState<'inline' | 'fullscreen'>('inline');
  const log = useBridgeLog();
  const addToLog = log.add;
  const [modelContext, setModelContext] = useState<unknown>();
  const [messages, setMessages] = useState<unknown[]>([]);
  const [consent, setConsent] = useState<AppHostView['consent']>();
  const [closed, setClosed] = useState(false);
  const [paused, setPaused] = useState<FloodReport>();
  // Grows on Resume: a fresh host and a fresh load of the view.
  const [run, setRun] = useState(0);
  const close = () => void host.current?.teardown().then(() => setClosed(true));
  const { sandboxOrigin, proxyUrl } = target;
  // The container's width as last observed (useHostContextSync): clientWidth here forced a layout.
  const width = useRef<number | undefined>(undefined);
  useEffect(() => {
    const el = frame.current;
    if (!resource || !el || !sandboxOrigin || !proxyUrl) return;
    // Each run (a Resume after a flood) is a fresh view with its own bridge frames.
    const viewId = `v${++views}.${run}-${resource.digest.slice(0, 8)}`;
    let live = true;
    let pausedOnce = false;
    const record = (f: BridgeFrame) => {
      addToLog(f);
      latest.current.onBridgeMessage?.(f);
    };
    const known = width.current;
    const h = createAppHost({
      frame: el,
      sandboxOrigin,
      viewId,
      tool: latest.current.tool,
      serverTools: () => latest.current.tools,
      resource,
      hostContext: {
        theme: theme(),
        displayMode: 'inline',
        platform: 'web',
        userAgent: 'mcp-loupe',
        locale: navigator.language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        toolInfo: { tool: latest.current.tool as never },
        containerDimensions: { ...(known ? { width: known } : { maxWidth: 1200 }), maxHeight: MAX_INLINE_HEIGHT },
      },
      callTool: (name, args) => latest.current.callTool(name, args),
      readResource: (uri) => latest.current.readResource(uri),
      record,
      onInitialized: (info) => {
        setInitialized(true);
        setApp(info);
      },
      onSize: ({ height: hh }) => hh !== undefined && setHeight(Math.min(Math.max(Math.ceil(hh), MIN_HEIGHT), MAX_INLINE_HEIGHT)),
      onDisplayMode: setMode,
      confirmOpenLink: (url) =>
        new Promise<boolean>((resolve) =>
          setConsent({
            url,
            answer: (ok) => {
              setConsent(undefined);
              resolve(ok);
            },
          }),
        ),
      onMessage: (p) => setMessages((m) => [...m, p].slice(-20)),
      onModelContext: setModelContext,
      onRequestTeardown: () => void h.teardown().then(() => setClosed(true)),
      onFlood: (report) => {
        // A report from a view a Resume (or unmount) replaced must not pause the new one.
        if (!live) return;
        if (pausedOnce) return setPaused(report);
        pausedOnce = true;
        // Rendered now, not when React gets to it: the frame goes (and with it the flood's source)
        // before another queued message is dispatched.
        flushSync(() => setPaused(report));
        void h.teardown();
      },
    });
    host.current = h;
    void h.connect().then(() => {
      if (!live) return;
      el.src = proxyUrl;
      h.input(latest.current.input);
      if (latest.current.outcome) h.outcome(latest.current.outcome);
    });
    return () => {
      live = false;
      host.current = undefined;
      // Unmounting removes the frame at once: the teardown is sent, but its answer cannot be awaited.
      void h.teardown();
      el.src = 'about:blank';
      setInitialized(false);
    };
  }, [frame, resource, sandboxOrigin, proxyUrl, run, addToLog]);

  useEffect(() => {
    if (deps.outcome) host.current?.outcome(deps.outcome);
  }, [deps.outcome]);

  useHostContextSync(host, container, displayMode, MAX_INLINE_HEIGHT, width);

  return {
    initialized,
    app,
    height,
    displayMode,
    frames: log.frames,
    logGeneration: log.generation,
    modelContext,
    messages,
    consent,
    closed,
    close,
    paused,
    resume() {
      setPaused(undefined);
      log.clear();
      setRun((r) => r + 1);
    },
    setDisplayMode(mode) {
      setMode(mode);
      host.current?.updateContext({ displayMode: mode });
    },
  };
}
