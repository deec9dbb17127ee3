import type { ReactNode } from 'react';

/** What a list says while it has nothing to show; `className` sets the padding of its container. */
export function EmptyState({ children, className = '', testId }: { children: ReactNode; className?: string; testId?: string }) {
  return (
    <p data-testid={testId} className={`text-center text-sm text-muted ${className}`}>
      {children}
    </p>
  );
}
