'use client';

import { TAP_FAULT_PRESETS, type TapFaultEntry } from '@/lib/scenario/tap-faults';

/** One line saying what a fault does, from its action and match. */
function describe(entry: TapFaultEntry): string {
  const a = entry.fault.action;
  const what =
    a.kind === 'http-status'
      ? `HTTP ${a.status}${a.retryAfter !== undefined ? `, Retry-After ${a.retryAfter}s` : ''}`
      : a.kind === 'latency'
        ? `latency ${a.ms !== undefined ? `${a.ms} ms` : a.distribution}`
        : a.kind === 'rpc-error'
          ? `JSON-RPC error ${a.code}`
          : 'afterEvents' in a
            ? `${a.kind} after ${a.afterEvents} events`
            : a.kind;
  const m = entry.fault.match;
  const on = [m.method ? `method ${Array.isArray(m.method) ? m.method.join('|') : m.method}` : '', m.tool ? `tool ${m.tool}` : ''].filter(Boolean).join(', ');
  return `${what}${on ? ` on ${on}` : ''}`;
}

/**
 * The tap's fault switchboard: the faults of `--faults FILE` and the ready-made ones, each
 * switched on or off; the tap applies a switch from its next request on, and marks every
 * fault it injects on the timeline. Stream faults apply to SSE responses of the HTTP tap.
 */
export function TapFaultsPanel({ faults, onChange, error }: { faults: TapFaultEntry[]; onChange: (next: TapFaultEntry[]) => void; error?: string }) {
  const rows = [...faults, ...TAP_FAULT_PRESETS.filter((p) => !faults.some((f) => f.id === p.id))];
  const toggle = (entry: TapFaultEntry, enabled: boolean) => {
    const known = faults.some((f) => f.id === entry.id);
    onChange(known ? faults.map((f) => (f.id === entry.id ? { ...f, enabled } : f)) : [...faults, { ...entry, enabled }]);
  };
  return (
    <div data-testid="tap-faults" className="space-y-1">
      {rows.map((entry) => (
        <label key={entry.id} className="flex items-center gap-2 text-xs" data-fault={entry.id}>
          <input
            type="checkbox"
            checked={entry.enabled}
            onChange={(e) => toggle(entry, e.currentTarget.checked)}
            data-testid="fault-switch"
            aria-label={`Fault ${entry.id}: ${describe(entry)}`}
          />
          <span className="font-mono">{entry.id}</span>
          <span className="text-muted">{describe(entry)}</span>
        </label>
      ))}
      {error ? (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
