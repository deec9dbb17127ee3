'use client';

import type { TimelineEntry } from '@/lib/state/timeline-types';
import { useRequestActions } from './use-request-actions';

const button = 'rounded-md border border-border px-2 py-1 text-xs hover:bg-surface-muted disabled:opacity-50';

/**
 * The request tools of the selected entry's exchange: copy as cURL, copy JSON, edit and resend
 * (an editor with the request's JSON; Send goes through the current session). Secrets in the
 * cURL are masked unless revealed here or in the header view (one switch for both).
 */
export function RequestActions({ entry }: { entry: TimelineEntry }) {
  const a = useRequestActions(entry);
  if (!a.available) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="request-actions">
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Request tools">
        <button type="button" className={button} data-testid="copy-curl" onClick={() => void a.copyCurl()}>
          Copy as cURL
        </button>
        <button type="button" className={button} data-testid="copy-json" onClick={() => void a.copyJson()}>
          Copy JSON
        </button>
        <button type="button" className={button} data-testid="edit-resend" onClick={a.edit}>
          Edit and resend
        </button>
        <label className="flex items-center gap-1 text-xs text-muted">
          <input
            type="checkbox"
            data-testid="curl-reveal"
            className="size-3.5 accent-accent"
            checked={a.reveal}
            onChange={(e) => a.setReveal(e.target.checked)}
          />
          Show secrets
        </label>
        {a.note ? (
          <span role="status" data-testid="request-actions-note" className="text-xs text-muted">
            {a.note}
          </span>
        ) : null}
      </div>
      {a.draft !== undefined ? (
        <form
          className="flex flex-col gap-2"
          data-testid="resend-editor"
          onSubmit={(e) => {
            e.preventDefault();
            void a.send();
          }}
        >
          <textarea
            aria-label="Request JSON to send"
            data-testid="resend-json"
            value={a.draft}
            onChange={(e) => a.setDraft(e.target.value)}
            spellCheck={false}
            rows={Math.min(16, a.draft.split('\n').length + 1)}
            className="w-full rounded-md border border-border bg-surface-muted p-2 font-mono text-xs"
          />
          <div className="flex gap-2">
            <button type="submit" disabled={a.sending} data-testid="resend-send" className="rounded-md bg-accent px-3 py-1 text-xs font-medium text-on-accent">
              Send
            </button>
            <button type="button" className={button} onClick={() => a.setDraft(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
