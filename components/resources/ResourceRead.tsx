'use client';

import { useState } from 'react';
import { ContentView } from './ContentView';
import { ResourceAppView } from './ResourceAppView';
import type { ReadState } from './use-resource-read';

/** The result of the last resources/read: each content item in its viewer, with the caching hints. */
export function ResourceRead({ state }: { state: ReadState }) {
  const [app, setApp] = useState<string>();
  if (state.phase === 'idle') return null;
  if (state.phase === 'reading')
    return (
      <p className="text-xs text-muted" data-testid="resource-read" data-phase="reading">
        Reading {state.uri}…
      </p>
    );
  if (state.phase === 'failed')
    return (
      <p
        role="alert"
        data-testid="resource-read"
        data-phase="failed"
        className="rounded-md border border-danger/40 bg-danger/10 p-2 font-mono text-xs text-danger"
      >
        {state.uri}: {state.problem}
      </p>
    );
  return (
    <div data-testid="resource-read" data-phase="done" data-uri={state.uri} className="space-y-2 rounded-md border border-border p-2">
      <p className="text-xs text-muted">
        {state.contents.length} content item{state.contents.length === 1 ? '' : 's'} · ttlMs <span data-testid="ttl-ms">{state.cache.ttlMs ?? '—'}</span> ·
        cacheScope <span data-testid="cache-scope">{state.cache.cacheScope ?? '—'}</span>
        {state.skipped ? <span className="text-danger"> · {state.skipped} malformed items not shown</span> : null}
      </p>
      {state.contents.map((c, i) => (
        // Contents of one read are fixed once shown; the index is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <ContentView key={i} item={c} onOpenApp={setApp} />
      ))}
      {app ? <ResourceAppView uri={app} /> : null}
    </div>
  );
}
