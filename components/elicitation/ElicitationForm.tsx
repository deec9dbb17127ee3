'use client';

import { useId, type FormEvent } from 'react';
import { CANCEL, DECLINE } from '@/lib/client/elicitation-form';
import type { ElicitResult } from '@/lib/protocol';
import { ActionButton } from '@/components/ui/ActionButton';
import { FormField } from './FormField';
import { useElicitationForm } from './use-elicitation-form';

interface ElicitationFormProps {
  /** The server's message, shown above the fields. */
  message: string;
  /** `requestedSchema` of a form-mode `elicitation/create`. */
  requestedSchema: unknown;
  /** Called with accept (and typed content), decline or cancel. */
  onResult: (result: ElicitResult) => void;
}

/**
 * A form generated from an elicitation's `requestedSchema`: every primitive kind, defaults
 * pre-filled, required fields marked, inline validation; Submit answers accept with the
 * content, Decline and Cancel answer without it. Fields that look like secrets are flagged,
 * since servers must never ask for them in form mode.
 */
export function ElicitationForm({ message, requestedSchema, onResult }: ElicitationFormProps) {
  const form = useElicitationForm(requestedSchema);
  const id = useId();
  const secrets = form.fields.filter((f) => f.secret);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const result = form.submit();
    if (result) onResult(result);
  };
  return (
    <form data-testid="elicitation-form" noValidate onSubmit={onSubmit} className="space-y-4">
      <p className="text-sm whitespace-pre-wrap">{message}</p>
      {secrets.length ? (
        <p role="alert" data-testid="secret-warning" className="rounded-md border border-danger/40 bg-danger/10 p-2 text-xs text-danger">
          This form seems to ask for a secret ({secrets.map((f) => `${f.label}: ${f.secret}`).join('; ')}). Servers must not request passwords, tokens, API keys
          or payment data through form mode; think twice before answering.
        </p>
      ) : null}
      {form.problems.map((p) => (
        <p key={p} data-testid="schema-problem" className="rounded-md border border-border bg-surface-muted p-2 text-xs text-muted">
          {p}
        </p>
      ))}
      <div className="space-y-3">
        {form.fields.map((f) => (
          <FormField
            key={f.key}
            id={`${id}-${f.key}`}
            field={f}
            value={form.values[f.key]}
            error={form.errors[f.key]}
            onChange={(v) => {
              form.setValue(f.key, v);
              if (f.kind !== 'text' && f.kind !== 'number') form.touch(f.key);
            }}
            onBlur={() => form.touch(f.key)}
          />
        ))}
      </div>
      <div className="flex flex-wrap gap-2">
        <ActionButton type="submit" tone="primary" action="accept">
          Submit
        </ActionButton>
        <ActionButton action="decline" onClick={() => onResult(DECLINE)}>
          Decline
        </ActionButton>
        <ActionButton action="cancel" onClick={() => onResult(CANCEL)}>
          Cancel
        </ActionButton>
      </div>
    </form>
  );
}
