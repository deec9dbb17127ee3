'use client';

import { useEffect } from 'react';
import { useControlRoom, useControlRoomContext } from './use-control-room';

/** How long the journal must be quiet before the report card is graded again. */
const SETTLE_MS = 400;

/**
 * Keeps the client report card current: it is graded from the journal, so it is fetched again
 * shortly after the journal changes. A server without a report card says so once.
 */
export function useReportCard() {
  const { store, client, scenarioId } = useControlRoomContext();
  const version = useControlRoom((s) => s.journalVersion);
  const card = useControlRoom((s) => s.reportCard);
  const highlighted = useControlRoom((s) => s.highlighted);
  useEffect(() => {
    const state = store.getState();
    if (state.reportCard.status === 'unavailable') return;
    let cancelled = false;
    const timer = setTimeout(
      () => {
        if (state.reportCard.status === 'idle') state.setReportCard({ status: 'loading' });
        void client.reportCard(scenarioId).then((reply) => {
          if (cancelled) return;
          if (reply.ok) store.getState().setReportCard({ status: 'ready', card: reply.data });
          else if (reply.status === 501) store.getState().setReportCard({ status: 'unavailable', message: reply.error });
          else store.getState().setReportCard({ status: 'error', message: reply.error });
        });
      },
      version === 0 ? 0 : SETTLE_MS,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [version, store, client, scenarioId]);
  return { card, highlighted, highlight: (seqs: number[]) => store.getState().highlight(seqs) };
}
