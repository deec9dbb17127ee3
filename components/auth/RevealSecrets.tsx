'use client';

import { useInspectorStore } from '@/components/inspector/use-inspector';

/** The Reveal/Hide secrets toggle of the auth views: one switch for the whole inspector (its `ui.reveal`). */
export function RevealSecrets({ reveal, testId }: { reveal: boolean; testId?: string }) {
  const store = useInspectorStore();
  return (
    <button
      type="button"
      data-testid={testId}
      aria-pressed={reveal}
      onClick={() => store.getState().ui.setReveal(!reveal)}
      className="shrink-0 rounded border border-border px-2 py-0.5 text-xs hover:bg-surface-muted"
    >
      {reveal ? 'Hide secrets' : 'Reveal secrets'}
    </button>
  );
}
