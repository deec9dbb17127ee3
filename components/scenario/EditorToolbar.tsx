'use client';

import { useState } from 'react';
import { ConfirmDialog } from './ConfirmDialog';
import type { ActionNote } from './use-scenario-source';

const BUTTON = 'rounded-md border border-border px-3 py-1.5 text-sm font-medium hover:bg-surface-muted disabled:cursor-not-allowed disabled:opacity-50';
const PRIMARY = 'rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-on-accent hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-50';
const NOTE_TONE = { ok: 'text-success', error: 'text-danger', busy: 'text-muted' } as const;

interface EditorToolbarProps {
  scenarioId: string;
  builtin: boolean;
  dirty: boolean;
  errorCount: number;
  note: ActionNote;
  onSave: () => void;
  onReset: () => void;
  onRevert: () => void;
  onDuplicate: (newId: string) => void;
}

/**
 * Save, revert, reset and duplicate, with the outcome of the last action. Reset destroys live
 * state, so it asks first and says what goes; Revert only touches the editor.
 */
export function EditorToolbar({ scenarioId, builtin, dirty, errorCount, note, onSave, onReset, onRevert, onDuplicate }: EditorToolbarProps) {
  const [newId, setNewId] = useState(`${scenarioId}-copy`);
  const [confirming, setConfirming] = useState(false);
  const saveTitle = builtin
    ? 'Built-in scenarios are read-only: duplicate to edit'
    : errorCount
      ? `Fix ${errorCount} error(s) first`
      : 'Save and restart the mock with this file';
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" data-testid="save-scenario" className={PRIMARY} disabled={builtin || errorCount > 0} title={saveTitle} onClick={onSave}>
          Save{dirty && !builtin ? ' *' : ''}
        </button>
        <button
          type="button"
          data-testid="revert-scenario"
          className={BUTTON}
          disabled={!dirty}
          title={dirty ? 'Put the saved file back in the editor; tasks and journal stay' : 'No unsaved edits'}
          onClick={onRevert}
        >
          Revert edits
        </button>
        <button
          type="button"
          data-testid="reset-scenario"
          className={BUTTON}
          title="Drop tasks, ledger, nonces and journal; restore the initial state (asks first)"
          onClick={() => setConfirming(true)}
        >
          Reset…
        </button>
        <ConfirmDialog
          open={confirming}
          testId="reset-dialog"
          title={`Reset ${scenarioId}?`}
          confirmLabel="Reset state"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            onReset();
          }}
        >
          <p>
            This wipes the running mock&apos;s live tasks, its journal, the ledger and nonces, and restores the scenario&apos;s initial state. Clients holding
            task ids will get errors.
          </p>
          <p className="text-muted">It does not touch the file or your unsaved edits: use Revert edits for those.</p>
        </ConfirmDialog>
        <form
          className="ml-auto flex items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            onDuplicate(newId.trim());
          }}
        >
          <label htmlFor="duplicate-id" className="text-xs text-muted">
            Copy as
          </label>
          <input
            id="duplicate-id"
            data-testid="duplicate-id"
            value={newId}
            onChange={(e) => setNewId(e.target.value)}
            pattern="[a-z0-9][a-z0-9\-]{0,63}"
            title="Lowercase letters, digits and dashes"
            className="w-40 rounded-md border border-border bg-surface px-2 py-1 font-mono text-sm"
          />
          <button type="submit" data-testid="duplicate-scenario" className={BUTTON}>
            Duplicate
          </button>
        </form>
      </div>
      {note ? (
        <p data-testid="editor-note" data-tone={note.tone} role={note.tone === 'error' ? 'alert' : 'status'} className={`text-xs ${NOTE_TONE[note.tone]}`}>
          {note.text}
        </p>
      ) : null}
    </div>
  );
}
