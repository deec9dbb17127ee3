'use client';

import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { createInspectorStore, type InspectorStore, type InspectorStoreOptions } from '@/lib/state/inspector-store';
import type { ConnectionConfig } from '@/lib/state/connection-slice';

/** The inspector store of the enclosing provider (one per mount). */
const InspectorContext = createContext<InspectorStore | null>(null);

interface InspectorProviderProps {
  children: ReactNode;
  /** Connect on mount with this configuration (the home page: the demo mock at `/mcp`). */
  autoConnect?: Partial<ConnectionConfig>;
  /** Store options (budgets, spill target); read once, on mount. */
  options?: InspectorStoreOptions;
  /** A store made elsewhere (tests, a recording viewer); wins over `options`. */
  store?: InspectorStore;
}

/** Creates the inspector store once per mount and, if asked, connects it; children use the `use-inspector` hooks. */
export function InspectorProvider({ children, autoConnect, options, store: given }: InspectorProviderProps) {
  const [store] = useState<InspectorStore>(() => given ?? createInspectorStore(options));
  const target = autoConnect ? JSON.stringify(autoConnect) : undefined;
  useEffect(() => {
    if (!target) return;
    void store.getState().connection.connect(JSON.parse(target) as Partial<ConnectionConfig>);
    // Unmounting (or a new target) ends the session; a re-mount connects again.
    return () => store.getState().connection.disconnect();
  }, [store, target]);
  useEffect(() => {
    // Leaving the page ends the session (a stdio child is killed with a keepalive DELETE); the
    // proxy also kills a child whose stream is gone, in case this never runs (a crashed tab).
    const leave = (e: PageTransitionEvent) => {
      if (!e.persisted) store.getState().connection.disconnect();
    };
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [store]);
  return <InspectorContext.Provider value={store}>{children}</InspectorContext.Provider>;
}

/** The store of the enclosing {@link InspectorProvider}; throws outside one. */
export function useInspectorStore(): InspectorStore {
  const store = useContext(InspectorContext);
  if (!store) throw new Error('Failed to read the inspector: use it inside <InspectorProvider>');
  return store;
}
