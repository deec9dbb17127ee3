'use client';

import { useMemo, useState } from 'react';
import { formatBytes } from '@/lib/client/resource-content';

/**
 * Text from a server, shown in full up to a limit and cut beyond it: a 50 MB string laid out in
 * one element freezes the page. The cut says how much is shown out of how much, and the whole
 * text stays reachable by Copy and Download (a Blob, built only when asked for). `dir="auto"`
 * isolates it: a right-to-left override inside cannot turn the page's text around it.
 */

/** The most characters put on the page. */
const SHOWN_CHARS = 100_000;

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

interface LongTextProps {
  text: string;
  className: string;
  testId: string;
  /** `pre` keeps the text's own line breaks in a scrolling box; `p` wraps it as prose. */
  as?: 'pre' | 'p';
  /** File name for Download. */
  fileName?: string;
}

/** The text, or its first {@link SHOWN_CHARS} characters with the cut explained and Copy / Download. */
export function LongText({ text, className, testId, as = 'p', fileName = 'content.txt' }: LongTextProps) {
  const [note, setNote] = useState('');
  const bytes = useMemo(() => (text.length > SHOWN_CHARS ? utf8Bytes(text) : 0), [text]);
  const Tag = as;
  if (text.length <= SHOWN_CHARS)
    return (
      <Tag data-testid={testId} className={className} dir="auto">
        {text}
      </Tag>
    );
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setNote('Copied the whole text');
    } catch {
      setNote('The browser did not allow copying; use Download');
    }
  };
  const button = 'rounded border border-border px-1.5 py-0.5 hover:bg-surface';
  return (
    <div data-testid="long-text" data-total-chars={text.length} data-bytes={bytes} className="space-y-1">
      <p role="status" data-testid="long-text-cut" className="flex flex-wrap items-center gap-2 text-xs text-warning">
        <span>
          Showing the first {SHOWN_CHARS.toLocaleString('en')} of {text.length.toLocaleString('en')} characters ({formatBytes(bytes)}): the rest is cut so the
          page stays responsive.
        </span>
        <button type="button" className={button} data-testid="long-text-copy" onClick={() => void copy()}>
          Copy all
        </button>
        <button type="button" className={button} data-testid="long-text-download" onClick={() => download(text, fileName)}>
          Download
        </button>
        <span className="text-muted">{note}</span>
      </p>
      <Tag data-testid={testId} className={className} dir="auto">
        {text.slice(0, SHOWN_CHARS)}
      </Tag>
    </div>
  );
}
