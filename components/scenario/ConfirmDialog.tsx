'use client';

import { useEffect, useId, useRef } from 'react';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What the action does, in full: the user decides from this text. */
  children: React.ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
}

/**
 * A modal confirmation on the native `<dialog>`: `showModal` gives the focus trap, Escape and
 * the inert page behind it, so the browser does the accessibility work. Focus starts on Cancel,
 * the harmless choice, so a stray Enter never confirms a destructive action.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, onConfirm, onCancel, testId }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement | null>(null);
  const cancelRef = useRef<HTMLButtonElement | null>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      cancelRef.current?.focus();
    } else if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      data-testid={testId}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      // Escape closes the dialog natively; keep React's state in step.
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      className="m-auto w-full max-w-md rounded-xl border border-border bg-surface p-5 text-foreground shadow-xl backdrop:bg-black/40"
    >
      <h2 id={titleId} className="text-base font-semibold">
        {title}
      </h2>
      <div id={bodyId} className="mt-2 space-y-2 text-sm">
        {children}
      </div>
      <div className="mt-4 flex justify-end gap-2">
        <button
          ref={cancelRef}
          type="button"
          data-testid="confirm-cancel"
          onClick={onCancel}
          className="rounded-md border border-border px-3 py-1.5 text-sm font-medium hover:bg-surface-muted"
        >
          Cancel
        </button>
        <button
          type="button"
          data-testid="confirm-ok"
          onClick={onConfirm}
          className="rounded-md border border-danger/60 px-3 py-1.5 text-sm font-medium text-danger hover:bg-danger/10"
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
