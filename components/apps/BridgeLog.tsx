'use client';

import { memo, useState } from 'react';
import { frameText } from '@/lib/client/frames';
import type { LoggedFrame } from './use-bridge-log';
import { asRecord } from '@/lib/shared/records';

/**
 * The bridge transcript of one app view, beside its iframe: every postMessage JSON-RPC message
 * between the inspector and the view, in order, with its direction, method and id. Refusals and
 * errors are flagged (the same frames go to the timeline's app lane).
 */

function kindOf(f: LoggedFrame): string {
  const b = asRecord(f.body);
  if (!b) return 'message';
  if ('error' in b) return 'error';
  if ('result' in b) return 'result';
  return 'id' in b ? 'request' : 'notification';
}

/** What to show after the method: the tool a tools/call names, or the error. */
function summary(f: LoggedFrame): string {
  if (f.errorText) return f.errorText;
  const params = asRecord(asRecord(f.body)?.params);
  if (typeof params?.name === 'string') return params.name;
  if (typeof params?.url === 'string') return params.url;
  if (typeof params?.mode === 'string') return params.mode;
  return '';
}

/**
 * Rows rendered until the user asks for all: an ordinary view's whole conversation, while a view
 * that floods up to its limit (200 rows in a second) costs the page the layout of these only.
 */
const SHOWN = 60;

/** The bridge transcript of one view; `started` anchors the relative times (default: the first frame). */
export function BridgeLog({ frames, started }: { frames: readonly LoggedFrame[]; started?: number }) {
  const [all, setAll] = useState(false);
  const t0 = started ?? frames[0]?.at ?? 0;
  const hidden = all ? 0 : Math.max(0, frames.length - SHOWN);
  return (
    <div className="flex min-h-0 flex-col rounded-md border border-border bg-surface">
      <h4 className="border-b border-border px-3 py-1.5 text-xs font-semibold">
        Bridge log{' '}
        <span data-testid="bridge-log-count" className="font-normal text-muted">
          ({frames.length})
        </span>
      </h4>
      <ol data-testid="bridge-log" className="max-h-96 min-h-24 overflow-y-auto font-mono text-[11px] leading-5 [contain:content]">
        {frames.length === 0 ? <li className="px-3 py-2 font-sans text-muted">No bridge messages yet.</li> : null}
        {hidden ? (
          <li className="px-3 py-1 font-sans">
            <button type="button" data-testid="bridge-log-show-all" onClick={() => setAll(true)} className="text-accent hover:underline">
              Show all {frames.length.toLocaleString('en-US')} ({hidden.toLocaleString('en-US')} earlier)
            </button>
          </li>
        ) : null}
        {(hidden ? frames.slice(hidden) : frames).map((f) => (
          <Row key={f.n} f={f} t0={t0} />
        ))}
      </ol>
    </div>
  );
}

/**
 * One message; memoized (a logged frame never changes), so a frame that adds rows renders only
 * those, and its body is laid out only once opened: a burst re-renders a few rows, not 300 bodies.
 */
const Row = memo(function Row({ f, t0 }: { f: LoggedFrame; t0: number }) {
  const [open, setOpen] = useState(false);
  const flagged = !!f.errorText;
  const kind = kindOf(f);
  return (
    <li
      data-method={f.method ?? ''}
      data-direction={f.direction}
      data-kind={kind}
      data-flagged={flagged ? 'true' : 'false'}
      className={`border-b border-border/60 px-3 ${flagged ? 'bg-danger/10 text-danger' : ''}`}
    >
      <details onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary className="cursor-pointer list-none truncate" title={flagged ? f.errorText : undefined}>
          <span className="inline-block w-12 text-right text-muted">+{Math.max(0, f.at - t0)}</span>{' '}
          <span title={f.direction === 'out' ? 'inspector → view' : 'view → inspector'}>{f.direction === 'out' ? '→' : '←'}</span>{' '}
          <span className={kind === 'request' || kind === 'notification' ? 'font-semibold' : ''}>{f.method ?? kind}</span>
          {f.rpcId !== undefined ? <span className="text-muted"> #{String(f.rpcId)}</span> : null}
          {kind === 'result' || kind === 'error' ? <span className="text-muted"> {kind}</span> : null}
          {summary(f) ? <span className={flagged ? '' : 'text-muted'}> · {summary(f)}</span> : null}
        </summary>
        {open ? <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all py-1 text-[10px]">{truncate(frameText(f))}</pre> : null}
      </details>
    </li>
  );
});

/** Bodies can carry a whole HTML document (sandbox-resource-ready): show the start only. */
function truncate(text: string | undefined): string {
  if (!text) return '';
  return text.length > 4000 ? `${text.slice(0, 4000)}… (${text.length} characters)` : text;
}
