'use client';

import type { CompletionRef } from '@/lib/client/resources';
import { useCompletion } from './use-completion';

/**
 * Text inputs for named string arguments (a template's variables, a prompt's arguments), each
 * with the server's completions as a datalist when it offers `completions`.
 */
export function ArgumentInputs({
  names,
  values,
  onChange,
  completionRef,
  required = [],
  descriptions = {},
}: {
  names: string[];
  values: Record<string, string>;
  onChange(values: Record<string, string>): void;
  completionRef: CompletionRef;
  required?: string[];
  descriptions?: Record<string, string | undefined>;
}) {
  const completion = useCompletion(completionRef, values);
  const idBase = `args-${JSON.stringify(completionRef).replace(/[^a-z0-9]/gi, '')}`;
  return (
    <div className="space-y-2">
      {names.map((name) => {
        const list = completion.suggestions[name] ?? [];
        return (
          <label key={name} className="block text-xs" data-arg={name}>
            <span className="font-mono">
              {name}
              {required.includes(name) ? <span className="text-danger"> *</span> : null}
            </span>
            {descriptions[name] ? <span className="ml-2 text-muted">{descriptions[name]}</span> : null}
            <input
              name={name}
              value={values[name] ?? ''}
              list={`${idBase}-${name}`}
              autoComplete="off"
              className="mt-1 block w-full rounded border border-border bg-surface px-2 py-1 font-mono text-xs"
              onFocus={() => completion.onFocus(name)}
              onChange={(e) => onChange({ ...values, [name]: e.target.value })}
            />
            <datalist id={`${idBase}-${name}`} data-testid="completions" data-count={list.length}>
              {list.map((v) => (
                <option key={v} value={v} />
              ))}
            </datalist>
          </label>
        );
      })}
    </div>
  );
}
