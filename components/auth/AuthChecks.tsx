'use client';

import { keyedByContent } from '@/components/ui/content-keys';

/** One check of an auth step: its name, and whether it passed (undefined: still to come). */
interface CheckRow {
  name: string;
  ok?: boolean;
  detail?: string;
}

/** The checks of an auth step, each marked passed, failed or to come (in words, not colour alone). */
export function AuthChecks({ checks, title }: { checks: CheckRow[]; title: string }) {
  if (!checks.length) return null;
  return (
    <div className="space-y-1">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-muted">{title}</h4>
      <ul className="space-y-0.5 text-xs" data-testid="auth-checks">
        {keyedByContent(checks, (c) => c.name).map(({ key, item: c }) => (
          <li key={key} data-check={c.name} data-ok={c.ok === undefined ? 'pending' : String(c.ok)} className="flex gap-2">
            <span className={`w-10 shrink-0 font-medium ${c.ok === undefined ? 'text-muted' : c.ok ? 'text-success' : 'text-danger'}`}>
              {c.ok === undefined ? 'next' : c.ok ? 'pass' : 'FAIL'}
            </span>
            <span>
              {c.name}
              {c.detail ? <span className="break-all font-mono text-muted"> · {c.detail}</span> : null}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
