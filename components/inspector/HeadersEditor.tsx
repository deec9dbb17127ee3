'use client';

import type { HeaderRow } from '@/lib/state/connection-slice';
import { useRowKeys } from '@/components/ui/use-row-keys';

const field = 'rounded-md border border-border bg-surface px-2 py-1 font-mono text-xs';

interface HeadersEditorProps {
  bearer: string;
  headers: HeaderRow[];
  onBearer(value: string): void;
  onChange(index: number, patch: Partial<HeaderRow>): void;
  onAdd(): void;
  onRemove(index: number): void;
}

/** The bearer token and custom headers sent on every request (through the proxy, any header works). */
export function HeadersEditor({ bearer, headers, onBearer, onChange, onAdd, onRemove }: HeadersEditorProps) {
  const rowKeys = useRowKeys(headers.length);
  const remove = (i: number) => {
    rowKeys.remove(i);
    onRemove(i);
  };
  return (
    <div className="space-y-2" data-testid="headers-editor">
      <label className="flex items-center gap-2 text-xs">
        <span className="w-28 text-muted">Bearer token</span>
        <input
          type="password"
          autoComplete="off"
          value={bearer}
          onChange={(e) => onBearer(e.target.value)}
          placeholder="sent as Authorization: Bearer …"
          data-testid="bearer-input"
          className={`${field} flex-1`}
        />
      </label>
      {headers.map((h, i) => (
        <div key={rowKeys.keys[i]} className="flex items-center gap-2" data-testid="header-row">
          <input type="checkbox" checked={h.enabled} onChange={(e) => onChange(i, { enabled: e.target.checked })} aria-label="Send this header" />
          <input
            value={h.name}
            onChange={(e) => onChange(i, { name: e.target.value })}
            placeholder="Header-Name"
            aria-label="Header name"
            className={`${field} w-40`}
          />
          <input
            value={h.value}
            onChange={(e) => onChange(i, { value: e.target.value })}
            placeholder="value"
            aria-label="Header value"
            className={`${field} flex-1`}
          />
          <button type="button" onClick={() => remove(i)} aria-label="Remove header" className="px-1 text-xs text-muted hover:text-danger">
            ✕
          </button>
        </div>
      ))}
      <button type="button" onClick={onAdd} data-testid="add-header" className="text-xs text-accent hover:underline">
        + Add header
      </button>
    </div>
  );
}
