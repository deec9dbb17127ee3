'use client';

import Link from 'next/link';
import { useEffect, useState } from 'react';
import { loupeFetch } from '@/lib/client/api-key';
import { TapListSchema, type TapInfo } from '@/lib/recording/tap-api';

/** How often the list asks Loupe for its taps (a tap appears when a client starts its server). */
const POLL_MS = 2000;

/**
 * The live taps of this Loupe (`mcp-loupe tap` processes feeding it), each a link to its live
 * view. Hidden until there is one, and for a browser without the launch token.
 */
export function TapList() {
  const [taps, setTaps] = useState<TapInfo[]>([]);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      const res = await loupeFetch('/api/taps', { cache: 'no-store' }).catch(() => undefined);
      const parsed = res?.ok ? TapListSchema.safeParse(await res.json().catch(() => undefined)) : undefined;
      if (stopped) return;
      if (parsed?.success) setTaps(parsed.data.taps);
      // Without the token the list stays empty; asking again would not change that.
      if (res?.status !== 401 && res?.status !== 403) timer = setTimeout(() => void load(), POLL_MS);
    };
    void load();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, []);
  if (!taps.length) return null;
  const live = taps.filter((t) => t.endedAt === undefined).length;
  return (
    <details className="relative text-sm" data-testid="live-taps">
      <summary className="cursor-pointer text-accent">
        Taps ({live} live{taps.length > live ? `, ${taps.length - live} ended` : ''})
      </summary>
      <ul className="absolute right-0 z-20 mt-1 w-[28rem] space-y-1 rounded-md border border-border bg-surface p-2 shadow-lg">
        {taps.map((t) => (
          <li key={t.id} className="flex items-center gap-2 font-mono text-xs">
            <span className={t.endedAt === undefined ? 'text-success' : 'text-muted'}>{t.endedAt === undefined ? '●' : '○'}</span>
            <Link href={`/tap/${encodeURIComponent(t.id)}`} data-testid="live-tap-link" data-tap-id={t.id} className="min-w-0 flex-1 truncate hover:underline">
              {t.transport} · {t.target}
            </Link>
            <span className="text-muted">{t.frames} frames</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
