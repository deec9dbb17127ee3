'use client';

import { useState } from 'react';
import { useInspector } from '@/components/inspector/use-inspector';
import { ListenCard } from './ListenCard';
import { StreamRow } from './StreamRow';

/**
 * The streams panel: every SSE stream of the connection (in 2026-07-28 one per POST) with its
 * acknowledgement, frames, keep-alives and close reason, and every listen subscription with the
 * reconnect plan each drop set in motion.
 */
export function StreamsPanel() {
  const order = useInspector((s) => s.streams.order);
  const byId = useInspector((s) => s.streams.byId);
  const listens = useInspector((s) => s.streams.listens);
  const listenOrder = useInspector((s) => s.streams.listenOrder);
  const [listenOnly, setListenOnly] = useState(false);
  const ids = (listenOnly ? order.filter((id) => byId[id]?.listenId) : order).slice(-100).reverse();
  const open = order.filter((id) => byId[id] && byId[id].closedAt === undefined).length;

  return (
    <section data-testid="streams-panel" className="space-y-4">
      <div className="space-y-2">
        <h2 className="text-sm font-semibold">
          Listen subscriptions <span className="font-normal text-muted">({listenOrder.length})</span>
        </h2>
        {listenOrder.length === 0 ? (
          <p className="text-xs text-muted">No subscriptions/listen yet. Tick “Listen” on a task in the Tasks panel to open one.</p>
        ) : (
          [...listenOrder].reverse().map((id) => {
            const listen = listens[id];
            return listen ? <ListenCard key={id} listen={listen} streams={byId} /> : null;
          })
        )}
      </div>
      <div className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <h2 className="text-sm font-semibold">
            SSE streams{' '}
            <span className="font-normal text-muted" data-testid="streams-count">
              ({order.length}, {open} open)
            </span>
          </h2>
          <label className="flex items-center gap-1.5 text-xs text-muted">
            <input type="checkbox" className="size-3.5 accent-accent" checked={listenOnly} onChange={(e) => setListenOnly(e.target.checked)} />
            listen streams only
          </label>
        </div>
        <section
          className="overflow-x-auto rounded-lg border border-border"
          aria-label="Streams"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must take focus so a keyboard user can scroll it (WCAG 2.1.1, axe scrollable-region-focusable)
          tabIndex={0}
        >
          <table data-testid="streams-table" className="w-full text-left text-sm">
            <thead className="bg-surface-muted text-xs uppercase tracking-wide text-muted">
              <tr>
                <th className="px-2 py-1.5 font-medium">Request</th>
                <th className="px-2 py-1.5 font-medium">HTTP</th>
                <th className="px-2 py-1.5 font-medium">Ack</th>
                <th className="px-2 py-1.5 text-right font-medium">Frames</th>
                <th className="px-2 py-1.5 text-right font-medium">Keep-alives</th>
                <th className="px-2 py-1.5 text-right font-medium">Bytes</th>
                <th className="px-2 py-1.5 font-medium">Lifetime</th>
                <th className="px-2 py-1.5 font-medium">Close</th>
              </tr>
            </thead>
            <tbody>
              {ids.map((id) => (byId[id] ? <StreamRow key={id} stream={byId[id]} /> : null))}
              {ids.length === 0 ? (
                <tr>
                  <td colSpan={8} className="px-3 py-4 text-center text-xs text-muted">
                    No SSE streams yet (JSON answers have none).
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </section>
      </div>
    </section>
  );
}
