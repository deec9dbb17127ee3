'use client';

import { useState } from 'react';
import type { StreamRecord } from '@/lib/state/streams-types';

/** One SSE stream as a table row: what it answered, its ack or response, counts, and how it ended; expands to its last frames. */

const CLOSE_TEXT: Record<string, string> = {
  complete: 'complete (response sent)',
  'server-closed': 'server closed it without a response',
  'client-closed': 'closed by the client',
  'network-error': 'dropped (network error)',
};

function ms(n: number | undefined): string {
  if (n === undefined) return '—';
  return n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(1)} s`;
}

/** The row of one SSE stream (see above); its method button expands it to its last frames. */
export function StreamRow({ stream: s }: { stream: StreamRecord }) {
  const [open, setOpen] = useState(false);
  const ack = s.ack ? 'acknowledged' : s.responded ? 'response' : '—';
  const abnormal = s.closeReason === 'network-error' || s.closeReason === 'server-closed';
  return (
    <>
      <tr data-testid="stream-row" data-method={s.method} data-close={s.closeReason ?? 'open'} className="border-t border-border align-top">
        <td className="px-2 py-1.5">
          <button type="button" className="font-mono text-xs text-accent hover:underline" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {s.method ?? '(unknown)'}
          </button>
          {s.taskFp ? <span className="ml-1 font-mono text-xs text-muted">{s.taskFp}</span> : null}
        </td>
        <td className="px-2 py-1.5 font-mono text-xs">{s.httpStatus ?? '—'}</td>
        <td className="px-2 py-1.5 text-xs" data-testid="stream-ack">
          {ack}
        </td>
        <td className="px-2 py-1.5 text-right font-mono text-xs" data-testid="stream-frames">
          {s.frames}
        </td>
        <td className="px-2 py-1.5 text-right font-mono text-xs" data-testid="stream-keepalives">
          {s.keepAlives}
        </td>
        <td className="px-2 py-1.5 text-right font-mono text-xs">{s.bytes}</td>
        <td className="px-2 py-1.5 font-mono text-xs">{ms(s.durationMs ?? (s.closedAt === undefined ? undefined : s.closedAt - s.openedAt))}</td>
        <td className={`px-2 py-1.5 text-xs ${abnormal ? 'text-danger' : ''}`} data-testid="stream-close" title={s.closeDetail}>
          {s.closeReason ? CLOSE_TEXT[s.closeReason] : <span className="text-success">open</span>}
        </td>
      </tr>
      {open ? (
        <tr className="bg-surface-muted/50">
          <td colSpan={8} className="px-2 py-1.5">
            <ol className="space-y-0.5 font-mono text-xs">
              {s.recent.map((f) => (
                <li key={f.seq} className={f.kind === 'keep-alive' ? 'text-muted' : ''}>
                  +{ms(f.at - s.openedAt)} {f.label}
                  {f.taskFp ? ` ${f.taskFp}` : ''} <span className="text-muted">({f.bytes} B)</span>
                </li>
              ))}
              {s.recent.length === 0 ? <li className="text-muted">no frames</li> : null}
            </ol>
            {s.closeDetail ? <p className="mt-1 text-xs text-muted">close: {s.closeDetail}</p> : null}
          </td>
        </tr>
      ) : null}
    </>
  );
}
