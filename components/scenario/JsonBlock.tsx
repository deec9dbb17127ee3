'use client';

/** Largest JSON text rendered in one block; the journal already bounds payloads. */
const MAX_CHARS = 20_000;

function render(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n… (${text.length - MAX_CHARS} more characters)` : text;
}

/** A labelled, scrollable JSON value. */
export function JsonBlock({ label, value, testId }: { label: string; value: unknown; testId?: string }) {
  return (
    <div className="min-w-0 space-y-1">
      <h4 className="text-[11px] font-semibold uppercase tracking-wide text-muted">{label}</h4>
      <pre
        data-testid={testId}
        className="max-h-72 overflow-auto rounded-md bg-surface-muted p-2 font-mono text-xs leading-relaxed whitespace-pre-wrap break-all"
      >
        {render(value)}
      </pre>
    </div>
  );
}
