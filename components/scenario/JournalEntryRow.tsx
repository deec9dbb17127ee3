'use client';

import { useEffect, useRef, useState } from 'react';
import type { JournalRow } from '@/lib/state/control-room-store';
import { HeaderTable } from './HeaderTable';
import { JsonBlock } from './JsonBlock';
import { clockTime } from '@/components/ui/clock-time';

/** What the request was about: the tool, prompt or resource it names. */
function subject(row: JournalRow): string | undefined {
  const params = (row.requestBody as { params?: Record<string, unknown> } | undefined)?.params;
  const value = params?.name ?? params?.uri;
  return typeof value === 'string' ? value : undefined;
}

function statusTone(status: number | undefined): string {
  if (status === undefined) return 'bg-surface-muted text-muted';
  if (status >= 400) return 'bg-danger/15 text-danger';
  if (status === 202) return 'bg-surface-muted text-muted';
  return 'bg-success/15 text-success';
}

interface JournalEntryRowProps {
  row: JournalRow;
  highlighted: boolean;
  /** Changes when this entry should scroll into view. */
  focusNonce?: number;
}

/** One request the mock received: method, status and time; expands to headers and bodies. */
export function JournalEntryRow({ row, highlighted, focusNonce }: JournalEntryRowProps) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (focusNonce === undefined) return;
    ref.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [focusNonce]);
  const name = subject(row);
  return (
    <li
      ref={ref}
      data-testid="journal-entry"
      data-seq={row.seq}
      data-method={row.method ?? ''}
      data-status={row.status ?? ''}
      data-highlighted={highlighted}
      className={`border-t border-border first:border-t-0 ${highlighted ? 'bg-accent/10 ring-2 ring-accent ring-inset' : ''}`}
    >
      <button
        type="button"
        data-testid="journal-entry-toggle"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="grid w-full grid-cols-[3rem_6.5rem_minmax(0,1fr)_auto] items-center gap-2 px-3 py-1.5 text-left text-xs hover:bg-surface-muted"
      >
        <span className="font-mono text-muted">#{row.seq}</span>
        <span className="font-mono text-muted">{clockTime(row.at)}</span>
        <span className="truncate font-mono">
          <span className="font-semibold">{row.method ?? '(not JSON-RPC)'}</span>
          {name ? <span className="text-muted"> {name}</span> : null}
          {row.fault ? <span className="ml-2 rounded bg-danger/15 px-1 text-danger">fault: {row.fault}</span> : null}
          {row.instance ? (
            <span data-testid="journal-instance" title="The fleet instance that served it" className="ml-2 rounded bg-surface-muted px-1 text-muted">
              @{row.instance}
            </span>
          ) : null}
        </span>
        <span className="flex items-center gap-1">
          {row.streamed ? <span className="rounded bg-surface-muted px-1.5 font-mono text-muted">SSE{row.end ? ` · ${row.end}` : ''}</span> : null}
          <span data-testid="journal-status" className={`rounded px-1.5 font-mono ${statusTone(row.status)}`}>
            {row.status ?? '…'}
          </span>
        </span>
      </button>
      {open ? (
        <div data-testid="journal-entry-details" className="grid gap-3 px-3 pb-3 lg:grid-cols-2">
          <HeaderTable headers={row.requestHeaders} />
          <JsonBlock label="Request body" value={row.requestBody} testId="journal-request-body" />
          <JsonBlock label={row.streamed ? 'Final response' : 'Response body'} value={row.responseBody} testId="journal-response-body" />
          {row.frames.length ? <JsonBlock label={`Stream frames (${row.frames.length})`} value={row.frames} /> : null}
        </div>
      ) : null}
    </li>
  );
}
