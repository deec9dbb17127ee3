'use client';

import { useMemo, useState } from 'react';
import { groupExchanges } from '@/lib/recording/exchanges';
import { toHar } from '@/lib/recording/har-export';
import { redactRecording, type ReviewItem } from '@/lib/recording/redact';
import { serializeRecording, type Recording } from '@/lib/recording/schema';
import type { SecretKind } from '@/lib/recording/secrets';
import { shareLink, type ShareOutcome } from '@/lib/recording/share';

/**
 * The export flow behind the review screen: redact (every kind by default; the user may keep
 * some), summarise what will be published, then make a share link or download a file. Nothing
 * leaves the page before the user picks one of them, and the link's recording travels in the
 * URL fragment only.
 */

interface ExportSummary {
  frames: number;
  exchanges: number;
  target: string;
  headerNames: string[];
  apps: number;
  bytes: number;
}

function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const fileStem = (r: Recording) => `loupe-${r.createdAt.replace(/[:.]/g, '-')}`;

/** The review screen's state and its publish actions for one recording. */
export function useExport(recording: Recording) {
  const [keep, setKeep] = useState<SecretKind[]>([]);
  const [link, setLink] = useState<(ShareOutcome & { url?: string }) | undefined>();
  const { recording: redacted, items } = useMemo(() => redactRecording(recording, { keep }), [recording, keep]);
  const text = useMemo(() => serializeRecording(redacted), [redacted]);
  const summary: ExportSummary = useMemo(
    () => ({
      frames: redacted.frames.length,
      exchanges: groupExchanges(redacted.frames).length,
      target: redacted.connection.target,
      headerNames: redacted.connection.headerNames,
      apps: Object.keys(redacted.apps).length,
      bytes: new TextEncoder().encode(text).byteLength,
    }),
    [redacted, text],
  );
  return {
    items: items as ReviewItem[],
    summary,
    keep,
    toggleKeep(kind: SecretKind, kept: boolean) {
      setLink(undefined);
      setKeep((k) => (kept ? [...new Set([...k, kind])] : k.filter((x) => x !== kind)));
    },
    link,
    makeLink() {
      setLink(shareLink(redacted, `${window.location.origin}/recording`));
    },
    downloadRecording: () => download(`${fileStem(redacted)}.loupe.json`, text, 'application/json'),
    downloadHar: () => download(`${fileStem(redacted)}.har`, JSON.stringify(toHar(redacted), null, 2), 'application/json'),
  };
}
