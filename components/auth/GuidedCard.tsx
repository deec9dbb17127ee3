'use client';

import { useEffect, useRef } from 'react';
import { useInspector, useInspectorStore } from '@/components/inspector/use-inspector';
import type { AuthStepPreview } from '@/lib/client/auth/trace';
import { maskAuthText } from '@/lib/state/auth-mask';
import { stepInfo } from '@/lib/state/auth-steps';
import { headerRows } from '@/lib/state/header-mask';
import { selectReveal } from '@/lib/state/selectors';
import { AuthChecks } from './AuthChecks';
import { RevealSecrets } from './RevealSecrets';

const button = 'rounded-md px-3 py-1.5 text-sm font-medium';

/** The query parameters of a URL, for reading an authorization request one field at a time. */
function queryParams(url: string): [string, string][] {
  try {
    return [...new URL(url).searchParams.entries()];
  } catch {
    return [];
  }
}

function Request({ p, reveal }: { p: AuthStepPreview; reveal: boolean }) {
  const show = (text: string) => (reveal ? text : maskAuthText(text));
  const params = queryParams(p.url);
  const headers = headerRows(p.headers, undefined, reveal);
  const body = p.body === undefined ? undefined : show(typeof p.body === 'string' ? p.body : JSON.stringify(p.body, null, 2));
  return (
    <div className="space-y-1 font-mono text-xs">
      <p className="break-all" data-testid="guided-url">
        {p.method} {show(p.url.split('?')[0] ?? p.url)}
      </p>
      {params.length ? (
        <table className="w-full table-fixed text-left">
          <caption className="text-left font-sans text-muted">Query parameters</caption>
          <tbody>
            {params.map(([k, v]) => (
              <tr key={k} data-param={k} className="border-t border-border/60 align-top">
                <td className="w-1/3 pr-2 text-muted">{k}</td>
                <td className="break-all">{show(`${k}=${v}`).slice(k.length + 1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {headers.map((h) => (
        <p key={h.name} className="break-all">
          <span className="text-muted">{h.name}:</span> {h.value}
        </p>
      ))}
      {body ? (
        <pre className="max-h-40 overflow-auto rounded bg-surface-muted p-2 whitespace-pre-wrap break-all" data-testid="guided-body">
          {body}
        </pre>
      ) : null}
    </div>
  );
}

/**
 * Guided mode: the step about to be sent, before it goes. What it is, the request (secrets
 * masked unless revealed), the spec rule that makes the client send it, and the checks its
 * answer must pass; Continue lets it go, Cancel stops the flow there.
 */
export function GuidedCard() {
  const store = useInspectorStore();
  const pending = useInspector((s) => s.auth.pending);
  const reveal = useInspector(selectReveal);
  const go = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (pending) go.current?.focus();
  }, [pending]);
  if (!pending) return null;
  const info = stepInfo(pending.step);
  const auth = () => store.getState().auth;
  return (
    <section
      aria-labelledby="guided-step-title"
      data-testid="guided-card"
      data-step={pending.step}
      className="space-y-2 rounded-xl border border-accent/50 bg-surface p-3 shadow-sm"
    >
      <div className="flex items-start justify-between gap-2">
        <h2 id="guided-step-title" className="text-sm font-semibold">
          Next step: {info.title} <span className="font-mono text-xs font-normal text-muted">({pending.step})</span>
        </h2>
        <RevealSecrets reveal={reveal} />
      </div>
      <p className="text-xs">
        <span className="text-muted">Why: </span>
        <span data-testid="guided-rule">{pending.rule}</span>
      </p>
      <Request p={pending} reveal={reveal} />
      <AuthChecks title="Checks on the answer" checks={info.checks.map((name) => ({ name }))} />
      <div className="flex gap-2">
        <button
          ref={go}
          type="button"
          data-testid="guided-continue"
          onClick={() => auth().continueStep()}
          className={`${button} bg-accent text-on-accent hover:opacity-90`}
        >
          Continue
        </button>
        <button
          type="button"
          data-testid="guided-cancel"
          onClick={() => auth().cancelStep()}
          className={`${button} border border-border hover:bg-surface-muted`}
        >
          Cancel
        </button>
      </div>
    </section>
  );
}
