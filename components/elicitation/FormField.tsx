'use client';

import type { FieldValue, FormFieldSpec } from '@/lib/client/elicitation-form';

/** One generated form field: text (with format), number, checkbox, single select or multi-select. */

const INPUT = 'w-full rounded-md border border-border bg-surface px-2.5 py-1.5 text-sm focus:outline-none focus:ring-2 focus:ring-accent/40';
const TEXT_TYPE = { email: 'email', uri: 'url', date: 'date' } as const;

interface FormFieldProps {
  field: FormFieldSpec;
  value: FieldValue | undefined;
  error?: string;
  id: string;
  onChange: (value: FieldValue) => void;
  onBlur: () => void;
}

function hint(f: FormFieldSpec): string | undefined {
  const parts: string[] = [];
  if (f.format === 'date-time') parts.push('RFC 3339, e.g. 2026-07-28T14:30:00Z');
  if (f.minLength !== undefined || f.maxLength !== undefined) parts.push(`${f.minLength ?? 0}–${f.maxLength ?? '∞'} characters`);
  if (f.kind === 'number')
    parts.push(
      `${f.integer ? 'whole number' : 'number'}${f.minimum !== undefined ? ` ≥ ${f.minimum}` : ''}${f.maximum !== undefined ? ` ≤ ${f.maximum}` : ''}`,
    );
  if (f.kind === 'multi' && (f.minItems !== undefined || f.maxItems !== undefined))
    parts.push(`choose ${f.minItems ?? 0}–${f.maxItems ?? f.options?.length ?? '∞'}`);
  return parts.length ? parts.join(' · ') : undefined;
}

function Control({ field: f, value, id, onChange, onBlur, describedBy }: FormFieldProps & { describedBy: string }) {
  const common = { id, name: f.key, 'aria-describedby': describedBy, 'aria-required': f.required || undefined, onBlur };
  if (f.kind === 'boolean') {
    return <input {...common} type="checkbox" className="size-4 accent-accent" checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  }
  if (f.kind === 'select') {
    return (
      <select {...common} className={INPUT} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)}>
        <option value="">{f.required ? 'Choose…' : '(none)'}</option>
        {f.options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  }
  if (f.kind === 'multi') {
    const chosen = Array.isArray(value) ? value : [];
    const toggle = (v: string, on: boolean) => onChange(on ? [...chosen.filter((c) => c !== v), v] : chosen.filter((c) => c !== v));
    return (
      <fieldset {...common} className="flex min-w-0 flex-wrap gap-x-4 gap-y-1">
        {f.options?.map((o) => (
          <label key={o.value} className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              name={`${f.key}[]`}
              value={o.value}
              className="size-4 accent-accent"
              checked={chosen.includes(o.value)}
              onChange={(e) => toggle(o.value, e.target.checked)}
              onBlur={onBlur}
            />
            {o.label}
          </label>
        ))}
      </fieldset>
    );
  }
  const type = f.kind === 'text' && f.format && f.format !== 'date-time' ? TEXT_TYPE[f.format] : 'text';
  const inputMode = f.kind === 'number' ? (f.integer ? 'numeric' : 'decimal') : undefined;
  const placeholder =
    f.format === 'date-time' ? '2026-07-28T14:30:00Z' : f.format === 'email' ? 'name@example.com' : f.format === 'uri' ? 'https://' : undefined;
  return (
    <input
      {...common}
      type={type}
      inputMode={inputMode}
      placeholder={placeholder}
      className={INPUT}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** A labelled field with its description, constraints, secret flag and inline error. */
export function FormField(props: FormFieldProps) {
  const { field: f, error, id } = props;
  const describedBy = `${id}-help ${id}-error`;
  const help = [f.description, hint(f)].filter(Boolean).join(' — ');
  return (
    <div data-field={f.key} data-kind={f.kind} data-invalid={error ? 'true' : undefined} className="space-y-1">
      <label htmlFor={id} className={`flex items-center gap-2 text-sm font-medium ${f.kind === 'boolean' ? 'flex-row-reverse justify-end' : ''}`}>
        <span>
          {f.label}
          {f.required ? (
            <span className="ml-0.5 text-danger" aria-hidden="true" data-testid={`required-${f.key}`}>
              *
            </span>
          ) : null}
        </span>
        {f.kind === 'boolean' ? <Control {...props} describedBy={describedBy} /> : null}
        {f.secret ? (
          <span className="rounded bg-danger/15 px-1.5 text-xs text-danger" title={`Looks like a secret: ${f.secret}`}>
            secret?
          </span>
        ) : null}
      </label>
      {f.kind !== 'boolean' ? <Control {...props} describedBy={describedBy} /> : null}
      {help ? (
        <p id={`${id}-help`} className="text-xs text-muted">
          {help}
        </p>
      ) : null}
      <p id={`${id}-error`} role={error ? 'alert' : undefined} data-testid={`error-${f.key}`} className="min-h-0 text-xs text-danger">
        {error ?? ''}
      </p>
    </div>
  );
}
