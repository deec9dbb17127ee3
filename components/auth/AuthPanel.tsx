'use client';

import { useInspector, useInspectorStore } from '@/components/inspector/use-inspector';
import { AuthorizeForm } from './AuthorizeForm';
import { GuidedCard } from './GuidedCard';

/** How the last flow ended: the scope granted, or why it failed (the step, the failed check, the fix). */
function Outcome() {
  const o = useInspector((s) => s.auth.outcome);
  if (!o) return null;
  if (o.ok)
    return (
      <p role="status" data-testid="auth-outcome" data-ok="true" className="text-xs text-success">
        OAuth: {o.message}
      </p>
    );
  return (
    <div
      role="alert"
      data-testid="auth-outcome"
      data-ok="false"
      data-step={o.step}
      className="space-y-1 rounded-md border border-danger/40 bg-danger/10 p-2 text-xs text-danger"
    >
      <p className="font-medium">
        Why the authorization failed: at step <span className="font-mono">{o.step}</span>, {o.message}
      </p>
      {o.check ? (
        <p data-testid="auth-failed-check">
          Failed check: <span className="font-mono">{o.check}</span>
        </p>
      ) : null}
      {o.fix ? <p data-testid="auth-fix">Fix: {o.fix}</p> : null}
    </div>
  );
}

/** The popup was blocked: the same URL as a link, opened by the person's click. */
function BlockedPopup() {
  const url = useInspector((s) => s.auth.blockedUrl);
  if (!url) return null;
  return (
    <p role="status" className="text-xs" data-testid="auth-blocked">
      The browser blocked the authorization popup.{' '}
      <a href={url} target="_blank" rel="noreferrer" className="text-accent underline">
        Open the authorization page
      </a>{' '}
      and approve there; this page continues when it comes back.
    </p>
  );
}

/**
 * The connection's OAuth: offered when the server answers 401 (the Authorize form), then the
 * guided step card, a blocked popup's link and how the flow ended. The flow's steps are on the
 * timeline's Auth lane.
 */
export function AuthPanel() {
  const store = useInspectorStore();
  const offered = useInspector((s) => s.connection.problem?.auth === true);
  const enabled = useInspector((s) => s.auth.enabled);
  const status = useInspector((s) => s.connection.status);
  if (!offered && !enabled) return null;
  return (
    <div className="space-y-2" data-testid="auth-panel">
      {enabled && status !== 'error' ? (
        <p className="flex items-center gap-2 text-xs text-muted">
          OAuth on for this connection (tokens in memory only).
          <button
            type="button"
            data-testid="auth-off"
            onClick={() => store.getState().auth.setEnabled(false)}
            className="rounded border border-border px-2 py-0.5 hover:bg-surface-muted"
          >
            Stop using OAuth
          </button>
        </p>
      ) : (
        <AuthorizeForm />
      )}
      <BlockedPopup />
      <GuidedCard />
      <Outcome />
    </div>
  );
}
