'use client';

import { useState } from 'react';
import { ActionButton } from '@/components/ui/ActionButton';
import type { Recording } from '@/lib/recording/schema';
import { nothingToReplaceText } from '@/lib/recording/review-text';
import { MAX_SHARE_LABEL } from '@/lib/recording/share';
import { useExport } from './use-export';

/**
 * The review screen: what an export will publish (the session in numbers, and each kind of
 * secret found with masked examples and the pseudonym replacing it) before anything is
 * published. Everything is redacted unless the user ticks "keep"; then a share link (the
 * recording in the URL fragment, up to the stated size) or a file (recording or HAR).
 */
export function ReviewDialog({ recording, onClose, note }: { recording: Recording; onClose: () => void; note?: string }) {
  const x = useExport(recording);
  const [copied, setCopied] = useState(false);
  const s = x.summary;
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label="Review before export"
      data-testid="review-dialog"
      className="fixed inset-0 z-40 flex items-start justify-center overflow-auto bg-black/40 p-6"
    >
      <div className="w-full max-w-2xl space-y-4 rounded-xl border border-border bg-surface p-5 shadow-xl">
        <header className="flex items-start justify-between gap-4">
          <div>
            <h2 className="text-base font-semibold">Review what will be published</h2>
            <p className="text-xs text-muted">Nothing leaves this page until you pick a link or a file below.</p>
          </div>
          <button
            type="button"
            onClick={onClose}
            data-testid="review-close"
            className="rounded-md border border-border px-2 py-1 text-xs hover:bg-surface-muted"
          >
            Close
          </button>
        </header>
        <dl data-testid="review-summary" className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
          <dt className="text-muted">Session</dt>
          <dd>
            {s.frames} frames, {s.exchanges} exchanges, {s.apps} app view{s.apps === 1 ? '' : 's'} ({(s.bytes / 1024).toFixed(0)} KiB)
          </dd>
          <dt className="text-muted">Server</dt>
          <dd className="font-mono">{s.target || '(unknown)'}</dd>
          <dt className="text-muted">Custom headers</dt>
          <dd>{s.headerNames.length ? `${s.headerNames.join(', ')} (names only; values are never recorded in the connection details)` : 'none'}</dd>
        </dl>
        {note ? <p className="text-xs text-muted">{note}</p> : null}
        <section className="space-y-2">
          <h3 className="text-sm font-semibold">Secrets found</h3>
          {x.items.length === 0 ? (
            <p className="text-xs text-muted" data-testid="review-none">
              {nothingToReplaceText(recording)}
            </p>
          ) : (
            <ul data-testid="review-items" className="space-y-2">
              {x.items.map((item) => (
                <li key={item.kind} data-kind={item.kind} data-redacted={item.redacted} className="rounded-md border border-border p-2 text-xs">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <span className="font-medium">
                      {item.label}: {item.distinct} value{item.distinct === 1 ? '' : 's'}, {item.occurrences} place{item.occurrences === 1 ? '' : 's'}
                    </span>
                    <label className="flex items-center gap-1 text-muted">
                      <input
                        type="checkbox"
                        data-testid={`keep-${item.kind}`}
                        className="size-3.5 accent-accent"
                        checked={!item.redacted}
                        onChange={(e) => x.toggleKeep(item.kind, e.target.checked)}
                      />
                      keep as recorded
                    </label>
                  </div>
                  <ul className="mt-1 space-y-0.5 font-mono text-muted">
                    {item.examples.map((ex) => (
                      <li key={ex.pseudonym}>
                        {ex.masked} → {item.redacted ? ex.pseudonym : <span className="text-danger">published as is</span>}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="space-y-2">
          <h3 className="text-sm font-semibold">Publish</h3>
          <div className="flex flex-wrap gap-2">
            <ActionButton action="share-link" tone="primary" data-testid="make-share-link" onClick={x.makeLink}>
              Create share link
            </ActionButton>
            <ActionButton action="download-recording" data-testid="download-recording" onClick={x.downloadRecording}>
              Download recording (.loupe.json)
            </ActionButton>
            <ActionButton action="download-har" data-testid="download-har" onClick={x.downloadHar}>
              Download HAR
            </ActionButton>
          </div>
          <p className="text-xs text-muted">
            A link carries the compressed recording in its fragment (after #), which browsers never send to a server. Links hold up to {MAX_SHARE_LABEL}; larger
            recordings are shared as a file.
          </p>
          {x.link?.ok ? (
            <div className="flex gap-2">
              <input
                readOnly
                value={x.link.url}
                data-testid="share-link"
                data-bytes={x.link.bytes}
                aria-label="Share link"
                className="min-w-0 flex-1 rounded-md border border-border bg-surface-muted px-2 py-1 font-mono text-xs"
                onFocus={(e) => e.currentTarget.select()}
              />
              <ActionButton
                action="copy-link"
                onClick={() => {
                  void navigator.clipboard?.writeText(x.link?.url ?? '').then(
                    () => setCopied(true),
                    () => setCopied(false),
                  );
                }}
              >
                {copied ? 'Copied' : 'Copy'}
              </ActionButton>
            </div>
          ) : x.link ? (
            <p role="alert" data-testid="share-too-large" className="text-xs text-danger">
              {x.link.message}
            </p>
          ) : null}
        </section>
      </div>
    </div>
  );
}
