'use client';

import Link from 'next/link';
import { MissingToken } from './MissingToken';
import { NewScenarioForm } from './NewScenarioForm';
import { useScenarioList } from './use-scenario-list';
import { Badge } from '@/components/ui/Badge';

/** Every scenario this Loupe serves, each linking to its control room, and a new one; the token hint when the list answers 401. */
export function ScenarioList() {
  const state = useScenarioList();
  if (state.status === 'error' && state.unauthorized) return <MissingToken />;
  if (state.status === 'loading') return <p className="text-sm text-muted">Loading scenarios…</p>;
  if (state.status === 'error') {
    return (
      <p role="alert" className="text-sm text-danger">
        {state.message}
      </p>
    );
  }
  return (
    <>
      <NewScenarioForm />
      <ul data-testid="scenario-list" className="divide-y divide-border rounded-xl border border-border bg-surface shadow-sm">
        {state.scenarios.map((s) => (
          <li key={s.id} data-testid="scenario-item" data-id={s.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-3">
            <Link href={`/scenarios/${encodeURIComponent(s.id)}`} className="font-mono font-semibold text-accent hover:underline">
              {s.id}
            </Link>
            <span className="text-sm">{s.name}</span>
            <Badge className="text-xs" title={s.file}>
              {s.file ? 'from --scenario' : s.builtin ? 'built-in' : s.valid ? 'saved' : 'saved · invalid'}
            </Badge>
            <code className="ml-auto font-mono text-xs text-muted">/mcp/{s.id}</code>
            {s.description ? <p className="w-full text-sm text-muted">{s.description}</p> : null}
          </li>
        ))}
      </ul>
    </>
  );
}
