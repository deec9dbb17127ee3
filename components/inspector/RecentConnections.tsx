'use client';

import { useEffect, useState } from 'react';
import { configOfLink } from '@/lib/state/connection-link';
import type { ConnectionConfig } from '@/lib/state/connection-slice';
import { loadRecent, recentLabel, type RecentConnection } from '@/lib/state/connection-recent';
import { useInspector } from './use-inspector';

/**
 * The recent connections (remembered in this browser, no secrets), as a picker beside the URL:
 * choosing one fills the form; the user still presses Connect, so a remembered stdio command
 * never starts by itself. Headers it named come back as disabled rows to fill in.
 */
export function RecentConnections({ onPick, disabled }: { onPick: (config: ConnectionConfig) => void; disabled: boolean }) {
  const status = useInspector((s) => s.connection.status);
  const [recent, setRecent] = useState<RecentConnection[]>([]);
  // Read after mount (and after each connect): the exported page has no localStorage to render from.
  useEffect(() => {
    if (status !== 'connecting') setRecent(loadRecent());
  }, [status]);
  if (!recent.length) return null;
  return (
    <select
      aria-label="Recent connections"
      data-testid="recent-connections"
      value=""
      disabled={disabled}
      onChange={(e) => {
        const picked = recent.find((r) => r.query === e.target.value);
        if (picked) onPick(configOfLink(picked.link, null).config);
      }}
      className="max-w-48 rounded-md border border-border bg-surface px-2 py-1.5 text-sm"
    >
      <option value="">Recent…</option>
      {recent.map((r) => (
        <option key={r.query} value={r.query}>
          {recentLabel(r.link)}
        </option>
      ))}
    </select>
  );
}
