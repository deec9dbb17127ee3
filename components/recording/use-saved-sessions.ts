'use client';

import { useCallback, useEffect, useState } from 'react';
import type { RecordingFileSummary } from '@/lib/protocol/loupe-api';
import { deleteSaved, listSaved, readSaved, renameSaved } from '@/lib/recording/saved-recordings';

/**
 * The sessions list's state: the saved recordings (each live session autosaves one), and open,
 * rename and delete on them. `?saved=<name>` in the page URL opens that one on load, so a
 * session can be linked to.
 */
export function useSavedSessions(onOpen: (text: string, name: string) => void) {
  const [list, setList] = useState<RecordingFileSummary[]>();
  const [error, setError] = useState<string>();

  const refresh = useCallback(async () => {
    const r = await listSaved();
    if (r.ok) setList(r.data);
    setError(r.ok ? undefined : r.error);
  }, []);

  const open = useCallback(
    async (name: string) => {
      const r = await readSaved(name);
      if (r.ok) onOpen(r.data, name);
      else setError(r.error);
    },
    [onOpen],
  );

  useEffect(() => {
    // A share link carries its recording in the fragment and opens with nothing asked of a server.
    if (/[#&]rec=/.test(location.hash)) return;
    void refresh();
    const saved = new URLSearchParams(location.search).get('saved');
    if (saved) void open(saved);
  }, [refresh, open]);

  const act = async (r: Promise<{ ok: true } | { ok: false; error: string }>) => {
    const done = await r;
    if (!done.ok) setError(done.error);
    await refresh();
    return done.ok;
  };
  return {
    list,
    error,
    open,
    rename: (name: string, to: string) => act(renameSaved(name, to)),
    remove: (name: string) => act(deleteSaved(name)),
  };
}
