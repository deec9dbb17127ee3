'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useNewScenario } from './use-new-scenario';

/** "New scenario": an id, then the control room of a fresh file made from the starter template. */
export function NewScenarioForm() {
  const router = useRouter();
  const { create, error, busy } = useNewScenario();
  const [id, setId] = useState('');
  return (
    <form
      aria-label="New scenario"
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void create(id.trim()).then((made) => {
          if (made) router.push(`/scenarios/${encodeURIComponent(made)}`);
        });
      }}
    >
      <label htmlFor="new-scenario-id" className="text-sm font-medium">
        New scenario
      </label>
      <input
        id="new-scenario-id"
        data-testid="new-scenario-id"
        value={id}
        required
        placeholder="my-scenario"
        onChange={(e) => setId(e.target.value)}
        pattern="[a-z0-9][a-z0-9\-]{0,63}"
        title="Lowercase letters, digits and dashes"
        className="w-48 rounded-md border border-border bg-surface px-2 py-1 font-mono text-sm"
      />
      <button
        type="submit"
        data-testid="new-scenario"
        disabled={busy}
        className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-on-accent hover:opacity-90 disabled:opacity-50"
      >
        Create
      </button>
      {error ? (
        <p role="alert" data-testid="new-scenario-error" className="w-full text-xs text-danger">
          {error}
        </p>
      ) : null}
    </form>
  );
}
