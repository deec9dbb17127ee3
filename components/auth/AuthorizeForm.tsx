'use client';

import type { FormEvent } from 'react';
import { useInspector, useInspectorStore } from '@/components/inspector/use-inspector';

const field = 'rounded-md border border-border bg-surface px-2 py-1.5 text-sm';

/**
 * Authorize with OAuth: optional pre-registered client id and secret (else the client registers
 * itself) and scope (else the server's challenge or metadata decides), and the guided mode. The
 * values stay in the page's memory: never in the URL, localStorage or a recording.
 */
export function AuthorizeForm() {
  const store = useInspectorStore();
  const s = useInspector((st) => st.auth.settings);
  const set = (patch: Partial<typeof s>) => store.getState().auth.setSettings(patch);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const st = store.getState();
    st.auth.setEnabled(true);
    void st.connection.connect();
  };
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-center gap-2" data-testid="authorize-form" aria-label="Authorize with OAuth">
      <input
        value={s.clientId}
        onChange={(e) => set({ clientId: e.target.value })}
        aria-label="Client id (optional)"
        placeholder="client id (optional: else registers)"
        autoComplete="off"
        data-testid="auth-client-id"
        className={`${field} w-56 font-mono`}
      />
      <input
        type="password"
        value={s.clientSecret}
        onChange={(e) => set({ clientSecret: e.target.value })}
        aria-label="Client secret (optional)"
        placeholder="client secret (optional)"
        autoComplete="off"
        data-testid="auth-client-secret"
        className={`${field} w-48 font-mono`}
      />
      <input
        value={s.scope}
        onChange={(e) => set({ scope: e.target.value })}
        aria-label="Scope (optional)"
        placeholder="scope (optional)"
        autoComplete="off"
        data-testid="auth-scope"
        className={`${field} w-48 font-mono`}
      />
      <label className="flex items-center gap-1.5 text-xs" title="Pause before each step of the flow: see what goes out, why, and what will be checked">
        <input
          type="checkbox"
          data-testid="auth-guided"
          className="size-3.5 accent-accent"
          checked={s.guided}
          onChange={(e) => set({ guided: e.target.checked })}
        />
        Guided
      </label>
      <button type="submit" data-testid="authorize-button" className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-on-accent hover:opacity-90">
        Authorize
      </button>
    </form>
  );
}
