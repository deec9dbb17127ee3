'use client';

import { useRef, useState } from 'react';
import { cacheHintsOf, type CacheHints } from '@/lib/client/list-page';
import { readResource } from '@/lib/client/resources';
import { ResourceContentSchema, type ResourceContent } from '@/lib/client/resource-content';
import { describeOutcome } from '@/lib/client/results';
import { useInspector } from '@/components/inspector/use-inspector';

/** The last resources/read of the Resources panel: its contents (each parsed) and caching hints, or why it failed. */
export type ReadState =
  | { phase: 'idle' }
  | { phase: 'reading'; uri: string }
  | { phase: 'done'; uri: string; contents: ResourceContent[]; cache: CacheHints; skipped: number }
  | { phase: 'failed'; uri: string; problem: string };

export function useResourceRead() {
  const session = useInspector((s) => s.connection.session);
  const [state, setState] = useState<ReadState>({ phase: 'idle' });
  const latest = useRef(0);

  async function read(uri: string) {
    if (!session) return setState({ phase: 'failed', uri, problem: 'Not connected' });
    const mine = ++latest.current;
    setState({ phase: 'reading', uri });
    const out = await readResource(session.request, uri);
    if (mine !== latest.current) return;
    if (out.type !== 'complete') return setState({ phase: 'failed', uri, problem: describeOutcome(out) });
    const raw = Array.isArray(out.result.contents) ? out.result.contents : undefined;
    if (!raw) return setState({ phase: 'failed', uri, problem: 'resources/read answered without a contents array' });
    const contents = raw.flatMap((c) => {
      const p = ResourceContentSchema.safeParse(c);
      return p.success ? [p.data] : [];
    });
    setState({ phase: 'done', uri, contents, cache: cacheHintsOf(out.result), skipped: raw.length - contents.length });
  }

  return { state, read };
}
