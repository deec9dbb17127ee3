'use client';

import { useState, type FormEvent } from 'react';
import { rootsAnswer, type ListRootsAnswer, type RootRow } from '@/lib/client/input-answers';
import { ActionButton } from '@/components/ui/ActionButton';
import { useRowKeys } from '@/components/ui/use-row-keys';

interface RootsRequestProps {
  /** The ListRootsResult the user composed. */
  onResult: (result: ListRootsAnswer) => void;
  /** The user refuses: the client does not retry. */
  onRefuse?: () => void;
  /** Rows to start with (e.g. the roots last given to this server). */
  initialRoots?: RootRow[];
}

const INPUT = 'w-full rounded-md border border-border bg-surface px-2.5 py-1.5 text-sm';

/** A `roots/list` request answered by the user: a list of file:// roots with optional names. */
export function RootsRequest({ onResult, onRefuse, initialRoots }: RootsRequestProps) {
  const [rows, setRows] = useState<RootRow[]>(() => (initialRoots?.length ? initialRoots : [{ uri: '', name: '' }]));
  const [errors, setErrors] = useState<Record<number, string>>({});
  const rowKeys = useRowKeys(rows.length);
  const edit = (i: number, patch: Partial<RootRow>) => setRows((prev) => prev.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const outcome = rootsAnswer(rows);
    if (outcome.ok) {
      setErrors({});
      onResult(outcome.result);
    } else setErrors(outcome.errors);
  };
  return (
    <form data-testid="roots-request" noValidate onSubmit={submit} className="space-y-3">
      <p className="text-sm">
        The server asks which directories it may work in. List them as file:// URIs (roots are a deprecated feature; share only what it needs).
      </p>
      <ul className="space-y-2">
        {rows.map((row, i) => (
          <li key={rowKeys.keys[i]} data-root={i} className="space-y-1">
            <div className="flex gap-2">
              <input
                aria-label={`Root ${i + 1} URI`}
                name="uri"
                placeholder="file:///path/to/project"
                className={`${INPUT} font-mono`}
                value={row.uri}
                onChange={(e) => edit(i, { uri: e.target.value })}
              />
              <input
                aria-label={`Root ${i + 1} name`}
                name="name"
                placeholder="name (optional)"
                className={INPUT}
                value={row.name}
                onChange={(e) => edit(i, { name: e.target.value })}
              />
              <ActionButton
                action="remove-root"
                aria-label={`Remove root ${i + 1}`}
                onClick={() => {
                  rowKeys.remove(i);
                  setRows((prev) => prev.filter((_, j) => j !== i));
                }}
              >
                ×
              </ActionButton>
            </div>
            {errors[i] ? (
              <p role="alert" data-testid={`error-root-${i}`} className="text-xs text-danger">
                {errors[i]}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <ActionButton action="add-root" onClick={() => setRows((prev) => [...prev, { uri: '', name: '' }])}>
          Add root
        </ActionButton>
        <ActionButton type="submit" tone="primary" action="send">
          Send roots
        </ActionButton>
        {onRefuse ? (
          <ActionButton action="refuse" onClick={onRefuse}>
            Refuse
          </ActionButton>
        ) : null}
      </div>
    </form>
  );
}
