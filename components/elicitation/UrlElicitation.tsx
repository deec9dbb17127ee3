'use client';

import { useMemo, useState } from 'react';
import { CANCEL, DECLINE } from '@/lib/client/elicitation-form';
import { analyzeUrl } from '@/lib/client/elicitation-url';
import type { ElicitResult } from '@/lib/protocol';
import { ActionButton } from '@/components/ui/ActionButton';

interface UrlElicitationProps {
  message: string;
  url: string;
  /** accept (no content) when the user opens the page and on each Retry; decline or cancel otherwise. */
  onResult: (result: ElicitResult) => void;
  /** How the page is opened; defaults to a new tab without opener or referrer. */
  openUrl?: (url: string) => void;
}

function defaultOpen(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

/**
 * URL-mode elicitation. The URL is shown in full (as text, never a link, so nothing is
 * prefetched) with its registrable domain highlighted and warnings for punycode, mixed scripts,
 * user info and http. Opening needs explicit consent. Opening answers accept, which only means
 * "the user agreed to open it": the UI never claims the flow finished, and offers Retry (ask the
 * server again) and Cancel.
 */
export function UrlElicitation({ message, url, onResult, openUrl = defaultOpen }: UrlElicitationProps) {
  const a = useMemo(() => analyzeUrl(url), [url]);
  const [consent, setConsent] = useState(false);
  const [opened, setOpened] = useState(false);
  const [retries, setRetries] = useState(0);
  const open = () => {
    if (!consent || !a.ok) return;
    openUrl(a.href);
    setOpened(true);
    onResult({ action: 'accept' });
  };
  return (
    <section data-testid="url-elicitation" data-state={opened ? 'opened' : 'asking'} className="space-y-3">
      <p className="text-sm whitespace-pre-wrap">{message}</p>
      <p data-testid="url-full" className="rounded-md border border-border bg-surface-muted p-2 font-mono text-sm break-all">
        <span className="text-muted">{a.parts.prefix}</span>
        <span>{a.parts.subdomain}</span>
        <mark data-testid="url-domain" className="rounded bg-accent/20 px-0.5 font-semibold text-foreground">
          {a.parts.domain}
        </mark>
        <span className="text-muted">{a.parts.rest}</span>
      </p>
      {a.punycode ? (
        <p className="text-xs text-muted">
          Displayed by browsers as <span className="font-mono">{a.unicodeHost}</span>
        </p>
      ) : null}
      {a.warnings.length ? (
        <ul
          role="alert"
          data-testid="url-warnings"
          className="list-disc space-y-1 rounded-md border border-danger/40 bg-danger/10 py-2 pr-2 pl-6 text-xs text-danger"
        >
          {a.warnings.map((w) => (
            <li key={w} data-testid="url-warning">
              {w}
            </li>
          ))}
        </ul>
      ) : null}
      {!a.ok ? (
        <p data-testid="url-blocked" className="text-sm text-danger">
          {a.reason}
        </p>
      ) : null}
      {!opened ? (
        <>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              data-testid="url-consent"
              className="mt-0.5 size-4 accent-accent"
              checked={consent}
              disabled={!a.ok}
              onChange={(e) => setConsent(e.target.checked)}
            />
            <span>
              I want to open this page on <strong className="font-mono">{a.parts.domain || a.host}</strong> in a new browser tab.
            </span>
          </label>
          <div className="flex flex-wrap gap-2">
            <ActionButton tone="primary" action="open" disabled={!consent || !a.ok} onClick={open}>
              Open page
            </ActionButton>
            <ActionButton action="decline" onClick={() => onResult(DECLINE)}>
              Decline
            </ActionButton>
            <ActionButton action="cancel" onClick={() => onResult(CANCEL)}>
              Cancel
            </ActionButton>
          </div>
        </>
      ) : (
        <>
          <p data-testid="url-status" className="text-sm text-muted">
            Opened in a new tab. That is not completion: finish there, then Retry; the server decides when the interaction is over.
            {retries ? ` Retried ${retries} time${retries > 1 ? 's' : ''}.` : ''}
          </p>
          <div className="flex flex-wrap gap-2">
            <ActionButton
              tone="primary"
              action="retry"
              onClick={() => {
                setRetries((n) => n + 1);
                onResult({ action: 'accept' });
              }}
            >
              Retry
            </ActionButton>
            <ActionButton action="cancel" onClick={() => onResult(CANCEL)}>
              Cancel
            </ActionButton>
          </div>
        </>
      )}
    </section>
  );
}
