'use client';

import type { ButtonHTMLAttributes } from 'react';

/** The buttons every feature uses: one primary action, the rest quiet, destructive ones in danger. */

const STYLE = {
  primary: 'bg-accent text-on-accent hover:bg-accent/90 disabled:bg-accent/40',
  quiet: 'border border-border bg-surface hover:bg-surface-muted disabled:opacity-50',
  danger: 'border border-danger/40 text-danger hover:bg-danger/10 disabled:opacity-50',
} as const;

interface ActionButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  tone?: keyof typeof STYLE;
  /** Names the action for tests and the timeline (`data-action`). */
  action: string;
}

/** A button with an action name (`data-action`) and a tone. */
export function ActionButton({ tone = 'quiet', action, className = '', type = 'button', ...rest }: ActionButtonProps) {
  return (
    <button
      type={type}
      data-action={action}
      className={`rounded-md px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed ${STYLE[tone]} ${className}`}
      {...rest}
    />
  );
}
