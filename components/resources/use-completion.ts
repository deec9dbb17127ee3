'use client';

import { useEffect, useRef, useState } from 'react';
import { completeArgument, type CompletionRef } from '@/lib/client/resources';
import { useInspector } from '@/components/inspector/use-inspector';

/**
 * Suggestions for the argument being typed, from completion/complete, asked only when the
 * server advertises `completions` and a short pause after the last keystroke (one request per
 * pause, not per key). The suggestions go into a <datalist> under the input.
 */
export function useCompletion(ref: CompletionRef, values: Record<string, string>) {
  const session = useInspector((s) => s.connection.session);
  const offered = useInspector((s) => !!s.connection.server?.capabilities?.completions);
  const [focus, setFocus] = useState<string>();
  const [suggestions, setSuggestions] = useState<Record<string, string[]>>({});
  const latest = useRef(0);
  const value = focus ? (values[focus] ?? '') : '';
  const refKey = JSON.stringify(ref);

  // biome-ignore lint/correctness/useExhaustiveDependencies: refKey stands for ref, and values are read at the pause
  useEffect(() => {
    if (!offered || !session || !focus) return;
    const mine = ++latest.current;
    const timer = setTimeout(async () => {
      const c = await completeArgument(session.request, ref, { name: focus, value }, values);
      if (mine === latest.current) setSuggestions((s) => ({ ...s, [focus]: c.values }));
    }, 250);
    return () => clearTimeout(timer);
  }, [offered, session, focus, value, refKey]);

  return { offered, suggestions, onFocus: setFocus };
}
