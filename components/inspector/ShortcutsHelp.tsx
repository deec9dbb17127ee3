'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { SHORTCUTS, useShortcuts } from './use-shortcuts';

/** The keyboard map (use-shortcuts.ts) and its help dialog, opened with `?` or the button. */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const show = useCallback(() => setOpen(true), []);
  useShortcuts(show);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <>
      <button
        type="button"
        onClick={show}
        data-testid="shortcuts-button"
        aria-label="Keyboard shortcuts"
        className="rounded-md border border-border px-2 py-0.5 font-mono text-xs text-muted hover:text-foreground"
      >
        ?
      </button>
      <dialog
        ref={dialog}
        onClose={() => setOpen(false)}
        aria-labelledby="shortcuts-title"
        data-testid="shortcuts-help"
        className="m-auto rounded-xl border border-border bg-surface p-4 text-foreground backdrop:bg-black/40"
      >
        <h2 id="shortcuts-title" className="mb-2 text-sm font-semibold">
          Keyboard shortcuts
        </h2>
        <table className="text-sm">
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.does} data-testid="shortcut">
                <th scope="row" className="py-1 pr-4 text-left font-normal">
                  {s.keys.map((k) => (
                    <kbd key={k} className="mr-1 rounded border border-border bg-surface-muted px-1.5 font-mono text-xs">
                      {k}
                    </kbd>
                  ))}
                </th>
                <td className="py-1 text-muted">{s.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-2 text-xs text-muted">Shortcuts never fire while you type in a field.</p>
        <form method="dialog" className="mt-3 text-right">
          <button type="submit" className="rounded-md border border-border px-3 py-1 text-xs hover:bg-surface-muted">
            Close
          </button>
        </form>
      </dialog>
    </>
  );
}
