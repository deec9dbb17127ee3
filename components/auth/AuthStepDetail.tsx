'use client';

import { useInspector } from '@/components/inspector/use-inspector';
import { maskAuthText } from '@/lib/state/auth-mask';
import { stepInfo } from '@/lib/state/auth-steps';
import { selectBuffer, selectVersion } from '@/lib/state/selectors';
import type { TimelineEntry } from '@/lib/state/timeline-types';
import { AuthChecks } from './AuthChecks';
import { RevealSecrets } from './RevealSecrets';

/**
 * The detail of an Auth-lane entry: which step of the flow, what it sent (the URL, secrets
 * masked unless revealed), why (the spec rule) and what was checked in the answer.
 */
export function AuthStepDetail({ entry, reveal }: { entry: TimelineEntry; reveal: boolean }) {
  const buffer = useInspector(selectBuffer);
  // The buffer is mutated in place: the version re-renders this when the step's answer comes.
  useInspector(selectVersion);
  const a = entry.auth;
  if (!a) return null;
  // A request's checks are on its answer, the exchange's last frame.
  const span = buffer.span(`exchange:${entry.exchangeId}`);
  const answer = span && span.lastId !== entry.id ? buffer.get(span.lastId)?.auth : undefined;
  const checks = a.checks ?? answer?.checks;
  const url = a.url ? (reveal ? a.url : maskAuthText(a.url)) : undefined;
  return (
    <section
      className="space-y-2 rounded-md border border-rose-500/40 bg-rose-500/5 p-2"
      data-testid="auth-step-detail"
      data-step={a.step}
      aria-label="Authorization step"
    >
      <div className="flex items-start justify-between gap-2">
        <h3 className="text-sm font-semibold">
          OAuth · {stepInfo(a.step).title} <span className="font-mono text-xs font-normal text-muted">({a.step})</span>
        </h3>
        <RevealSecrets reveal={reveal} testId="auth-reveal" />
      </div>
      <p className="text-xs">
        <span className="text-muted">Why: </span>
        <span data-testid="auth-rule">{a.rule}</span>
      </p>
      {url ? (
        <p className="break-all font-mono text-xs" data-testid="auth-url">
          {a.method ? `${a.method} ` : ''}
          {url}
        </p>
      ) : null}
      <AuthChecks title="Checks on the answer" checks={checks ?? stepInfo(a.step).checks.map((name) => ({ name }))} />
    </section>
  );
}
