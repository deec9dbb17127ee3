'use client';

import { useEffect, useState } from 'react';
import { createControlClient } from '@/lib/client/control-client';
import { linkQuery, linkTab, parseLinkQuery } from '@/lib/protocol/launch-link';
import { configOfLink, DEMO_CONNECTION, linkOfConfig } from '@/lib/state/connection-link';
import { rememberRecent } from '@/lib/state/connection-recent';
import type { ConnectionConfig } from '@/lib/state/connection-slice';
import { useInspectorStore } from './use-inspector';

/**
 * The home page's connection lives in its URL (lib/protocol/launch-link.ts), so a reload or a
 * bookmark connects again: on load, the connection the query names (with the launch's header
 * values, asked of `GET /api/launch` behind the cookie; the URL never holds them), or the demo
 * when it names none. Every later connect from the connection bar is written back with
 * replaceState, still without secrets, and so is the side panel shown (`tab=`). Each connection
 * that succeeds is remembered in the recent list (lib/state/connection-recent.ts).
 *
 * A link can come from anywhere, so a stdio command in it is started on load only when this
 * launch was given it on its command line or this tab already ran it; otherwise it waits in the
 * connection bar for the user's own Connect.
 */

/** Command lines this tab has connected to (per tab, gone with it). */
const RAN_KEY = 'loupe:stdio-ran';

function ranInThisTab(): string[] {
  try {
    const list: unknown = JSON.parse(sessionStorage.getItem(RAN_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function rememberRun(commandLine: string): void {
  const list = ranInThisTab();
  if (list.includes(commandLine)) return;
  try {
    sessionStorage.setItem(RAN_KEY, JSON.stringify([...list, commandLine].slice(-20)));
  } catch {
    /* storage disabled: a reload then asks again */
  }
}

/** Put the link naming `config` and the panel `tab` into the address bar (a bare `/` for the demo on its first panel). */
function writeUrl(config: ConnectionConfig, tab: string): void {
  const link = linkOfConfig(config);
  const q = new URLSearchParams(link ? linkQuery(link) : '');
  if (tab !== 'tools') q.set('tab', tab);
  const query = q.toString();
  const next = `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
  if (next !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', next);
}

/** Connect as the page URL says and keep the URL in step; returns the stdio command line held for a click, if any. */
export function useLinkedConnection(): string | undefined {
  const store = useInspectorStore();
  const [held, setHeld] = useState<string>();

  useEffect(() => {
    let cancelled = false;
    const connection = () => store.getState().connection;
    const link = parseLinkQuery(location.search);
    const tab = linkTab(location.search);
    if (tab) store.getState().ui.setPanel(tab);
    void (async () => {
      if (!link) return connection().connect(DEMO_CONNECTION);
      const launch = await createControlClient().launch();
      if (cancelled) return;
      const { config, fromLaunch } = configOfLink(link, launch.ok ? launch.data.connection : null);
      if (config.mode === 'stdio' && !fromLaunch && !ranInThisTab().includes(config.url)) {
        connection().setConfig(config);
        setHeld(config.url);
        return;
      }
      return connection().connect(config);
    })();
    return () => {
      cancelled = true;
      connection().disconnect();
    };
  }, [store]);

  useEffect(
    () =>
      store.subscribe((state, previous) => {
        const now = state.connection;
        if (state.ui.panel !== previous.ui.panel) writeUrl(now.config, state.ui.panel);
        if (now.status === 'connected' && previous.connection.status !== 'connected') {
          const link = linkOfConfig(now.config);
          if (link) rememberRecent(link);
        }
        // A connect sets the config and 'connecting' in one update: that is the moment to follow.
        if (now.status !== 'connecting' || (previous.connection.status === 'connecting' && previous.connection.config === now.config)) return;
        writeUrl(now.config, state.ui.panel);
        if (now.config.mode === 'stdio') rememberRun(now.config.url);
        setHeld(undefined);
      }),
    [store],
  );
  return held;
}
