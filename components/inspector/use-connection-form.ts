'use client';

import { useCallback, useEffect, useState } from 'react';
import type { ConnectionConfig, HeaderRow } from '@/lib/state/connection-slice';
import { useInspector, useInspectorStore } from './use-inspector';

/**
 * The connection bar's draft: edited freely, applied on Connect. It follows the store's
 * config whenever a connect applies one (e.g. the home page's automatic demo connection).
 */
export function useConnectionForm() {
  const store = useInspectorStore();
  const config = useInspector((s) => s.connection.config);
  const status = useInspector((s) => s.connection.status);
  const [draft, setDraft] = useState<ConnectionConfig>(config);
  useEffect(() => setDraft(config), [config]);

  const patch = useCallback((p: Partial<ConnectionConfig>) => setDraft((d) => ({ ...d, ...p })), []);
  const replace = useCallback((c: ConnectionConfig) => setDraft(c), []);
  const setHeader = useCallback(
    (i: number, p: Partial<HeaderRow>) => setDraft((d) => ({ ...d, headers: d.headers.map((h, k) => (k === i ? { ...h, ...p } : h)) })),
    [],
  );
  const addHeader = useCallback(() => setDraft((d) => ({ ...d, headers: [...d.headers, { name: '', value: '', enabled: true }] })), []);
  const removeHeader = useCallback((i: number) => setDraft((d) => ({ ...d, headers: d.headers.filter((_, k) => k !== i) })), []);

  const connected = status === 'connected' || status === 'connecting';
  const submit = useCallback(() => {
    const c = store.getState().connection;
    if (connected) c.disconnect();
    else void c.connect(draft);
  }, [store, connected, draft]);

  return { draft, status, connected, patch, replace, setHeader, addHeader, removeHeader, submit };
}
