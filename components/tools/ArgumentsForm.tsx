'use client';

import { FormField } from '@/components/elicitation/FormField';
import type { FieldValue } from '@/lib/client/elicitation-form';
import type { ArgField, ArgValues, JsonArgField } from '@/lib/client/tool-arguments';

/**
 * The arguments of a tool call: one control per inputSchema property (the elicitation form's
 * fields), a JSON box for properties a control cannot express, or the whole object as raw JSON.
 */

const INPUT = 'w-full rounded-md border border-border bg-surface px-2.5 py-1.5 font-mono text-xs focus:outline-none focus:ring-2 focus:ring-accent/40';

interface ArgumentsFormProps {
  fields: ArgField[];
  values: ArgValues;
  errors: Record<string, string>;
  onChange: (key: string, value: FieldValue) => void;
  raw: boolean;
  rawText: string;
  rawError?: string;
  onRawChange: (text: string) => void;
  onToggleRaw: (raw: boolean) => void;
  idPrefix: string;
}

function JsonField({
  field,
  value,
  error,
  id,
  onChange,
}: {
  field: JsonArgField;
  value: FieldValue | undefined;
  error?: string;
  id: string;
  onChange: (v: string) => void;
}) {
  return (
    <div data-field={field.key} data-kind="json" data-invalid={error ? 'true' : undefined} className="space-y-1">
      <label htmlFor={id} className="text-sm font-medium">
        {field.label}
        {field.required ? <span className="ml-0.5 text-danger">*</span> : null} <span className="text-xs font-normal text-muted">(JSON)</span>
      </label>
      <textarea id={id} name={field.key} rows={3} className={INPUT} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />
      <p className="truncate text-xs text-muted" title={field.schemaText}>
        {field.description ? `${field.description} — ` : ''}
        schema {field.schemaText}
      </p>
      {error ? (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The argument form with its raw-JSON switch. */
export function ArgumentsForm(p: ArgumentsFormProps) {
  return (
    <div className="space-y-3" data-testid="arguments-form" data-mode={p.raw ? 'raw' : 'form'}>
      <label className="flex items-center gap-2 text-xs text-muted">
        <input
          type="checkbox"
          data-testid="raw-json-toggle"
          className="size-3.5 accent-accent"
          checked={p.raw}
          onChange={(e) => p.onToggleRaw(e.target.checked)}
        />
        Edit the arguments as raw JSON
      </label>
      {p.raw ? (
        <div className="space-y-1">
          <textarea
            data-testid="raw-arguments"
            rows={6}
            className={INPUT}
            value={p.rawText}
            onChange={(e) => p.onRawChange(e.target.value)}
            aria-label="Arguments as JSON"
          />
          {p.rawError ? (
            <p role="alert" className="text-xs text-danger">
              {p.rawError}
            </p>
          ) : null}
        </div>
      ) : p.fields.length === 0 ? (
        <p className="text-xs text-muted">This tool takes no arguments.</p>
      ) : (
        p.fields.map((f) =>
          f.kind === 'json' ? (
            <JsonField
              key={f.key}
              field={f}
              value={p.values[f.key]}
              error={p.errors[f.key]}
              id={`${p.idPrefix}-${f.key}`}
              onChange={(v) => p.onChange(f.key, v)}
            />
          ) : (
            <FormField
              key={f.key}
              field={f}
              value={p.values[f.key]}
              error={p.errors[f.key]}
              id={`${p.idPrefix}-${f.key}`}
              onChange={(v) => p.onChange(f.key, v)}
              onBlur={() => {}}
            />
          ),
        )
      )}
    </div>
  );
}
