'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { ScenarioIssue } from '@/lib/scenario/loader';
import { EditorToolbar } from './EditorToolbar';
import { IssueList } from './IssueList';
import { useCodeEditor } from './use-code-editor';
import { useControlRoomContext } from './use-control-room';
import { useScenarioSource, type SourceState } from './use-scenario-source';

type Ready = Extract<SourceState, { status: 'ready' }>;

function EditorPane({ source, actions }: { source: Ready; actions: ReturnType<typeof useScenarioSource> }) {
  const { scenarioId } = useControlRoomContext();
  const router = useRouter();
  const [issues, setIssues] = useState<{ errors: ScenarioIssue[]; warnings: ScenarioIssue[] }>({ errors: [], warnings: [] });
  const editor = useCodeEditor({
    text: source.text,
    revision: source.revision,
    readOnly: source.builtin,
    sourceName: `${scenarioId}.yaml`,
    onChange: actions.edited,
    onIssues: setIssues,
  });
  // The server validates again on save (resource files, the id matching the path): its issues
  // show until the next edit is linted.
  const errors = issues.errors.length || !actions.serverIssues.length ? issues.errors : actions.serverIssues;
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3">
      <EditorToolbar
        scenarioId={scenarioId}
        builtin={source.builtin}
        dirty={actions.dirty}
        errorCount={issues.errors.length}
        note={actions.note}
        onSave={() => void actions.save()}
        onReset={() => void actions.reset()}
        onRevert={() => void actions.revert()}
        onDuplicate={(newId) =>
          void actions.duplicate(newId).then((id) => {
            if (id) router.push(`/scenarios/${encodeURIComponent(id)}`);
          })
        }
      />
      {source.builtin ? (
        <p data-testid="builtin-notice" className="rounded-md border border-border bg-surface-muted px-3 py-2 text-xs text-muted">
          <strong className="text-foreground">{scenarioId}</strong> is read-only here: built in, or a file given with <code>--scenario</code> (edit that file).
          Duplicate it to edit a copy saved under <code>.loupe/scenarios/</code>.
        </p>
      ) : null}
      <div
        ref={editor.ref}
        data-testid="scenario-editor"
        data-error-count={issues.errors.length}
        className="h-[32rem] min-h-64 overflow-hidden rounded-lg border border-border [&_.cm-editor]:h-full"
      />
      <IssueList errors={errors} warnings={issues.warnings} onPick={editor.goToLine} />
    </div>
  );
}

/** The scenario's YAML in a code editor, validated as you type, with save, reset and duplicate. */
export function ScenarioEditor() {
  const actions = useScenarioSource();
  const { source } = actions;
  return (
    <section aria-label="Scenario file" className="flex min-h-0 flex-col gap-3 rounded-xl border border-border bg-surface p-4 shadow-sm">
      <h2 className="text-sm font-semibold">Scenario file</h2>
      {source.status === 'loading' ? <p className="text-sm text-muted">Loading the scenario…</p> : null}
      {source.status === 'error' ? (
        <p role="alert" className="text-sm text-danger">
          {source.message}
        </p>
      ) : null}
      {source.status === 'ready' ? <EditorPane source={source} actions={actions} /> : null}
    </section>
  );
}
