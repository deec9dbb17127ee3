'use client';

import { AuthStepDetail } from '@/components/auth/AuthStepDetail';
import { useInspectorStore } from '@/components/inspector/use-inspector';
import type { TimelineEntry } from '@/lib/state/timeline-types';
import { ExchangeFrames } from './ExchangeFrames';
import { HeadersView } from './HeadersView';
import { JsonView } from './JsonView';
import { LintList } from './LintList';
import { RequestActions } from './RequestActions';
import { SnapshotDiff } from './SnapshotDiff';
import { useDetail } from './use-detail';

function bytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(2)} MiB`;
}

function Facts({ e }: { e: TimelineEntry }) {
  const facts: [string, string][] = [
    ['time', new Date(e.at).toISOString().slice(11, 23)],
    ['kind', e.kind],
    ['direction', e.direction === 'out' ? 'sent →' : '← received'],
  ];
  if (e.method) facts.push(['method', [e.method, e.target].filter(Boolean).join(' ')]);
  if (e.status) facts.push(['status', e.status]);
  if (e.rpcId !== undefined) facts.push(['id', String(e.rpcId)]);
  if (e.taskFp) facts.push(['task', e.taskFp]);
  if (e.bytes) facts.push(['size', bytes(e.bytes)]);
  if (e.durationMs !== undefined) facts.push([e.kind === 'sse-close' ? 'stream lived' : 'took', `${Math.round(e.durationMs)} ms`]);
  if (e.closeReason) facts.push(['close', e.closeReason]);
  if (e.conversationId) facts.push(['conversation', e.conversationId]);
  return (
    <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs" data-testid="detail-facts">
      {facts.map(([k, v]) => (
        <div key={k} className="flex gap-1">
          <dt className="text-muted">{k}</dt>
          <dd className="font-mono">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The selected entry: its facts, the frames of its exchange, its JSON as a foldable tree, and its
 * headers, lints and task snapshot diff (beside the JSON when the pane is wide, under it when not).
 */
export function DetailPane() {
  const store = useInspectorStore();
  const d = useDetail();
  const select = (id: number) => store.getState().timeline.select(id);
  if (!d.entry) {
    return (
      <section className="min-h-0 flex-1 rounded-xl border border-border bg-surface p-4 text-sm text-muted" data-testid="detail-pane" data-empty>
        {d.selectedId !== undefined
          ? 'That entry left memory (the timeline keeps the newest frames within its byte budget).'
          : 'Select an exchange on the timeline to see its JSON, headers and lints.'}
      </section>
    );
  }
  const e = d.entry;
  return (
    <section
      className="@container flex min-h-0 flex-1 flex-col gap-3 overflow-auto rounded-xl border border-border bg-surface p-3"
      data-testid="detail-pane"
      data-entry-id={e.id}
      aria-label="Entry detail"
    >
      <div className="flex items-start justify-between gap-3">
        <Facts e={e} />
        {/* Mount point for the detail's request actions (copy as cURL, copy JSON, edit and resend): beside the close button. */}
        <button
          type="button"
          onClick={() => store.getState().timeline.select(undefined)}
          className="text-xs text-muted hover:text-foreground"
          aria-label="Close the detail"
        >
          ✕
        </button>
      </div>
      <RequestActions key={e.exchangeId} entry={e} />
      <ExchangeFrames entry={e} />
      {e.fault ? (
        <p data-testid="detail-fault" className="rounded-md border border-warning/40 bg-warning/10 p-2 font-mono text-xs text-warning">
          Fault injected by the tap (neither peer's doing): {e.fault}
        </p>
      ) : null}
      {e.auth ? <AuthStepDetail entry={e} reveal={d.reveal} /> : null}
      {e.errorText ? (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-2 font-mono text-xs text-danger">
          {e.errorText}
        </p>
      ) : null}
      <div className="grid min-h-0 flex-1 grid-cols-1 gap-3 @3xl:grid-cols-2">
        <div className="flex min-h-64 flex-col gap-1">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">JSON</h3>
          {e.truncated ? (
            <p className="text-xs text-muted" data-testid="detail-truncated">
              {d.partial
                ? `Showing the first ${bytes(e.preview?.length ?? 0)} of ${bytes(e.bytes)}: the full body ${e.fullBody === 'too-large' ? 'was larger than the body budget' : 'was evicted'}.`
                : `Large payload (${bytes(e.bytes)}): the list keeps a preview, shown here in full.`}
            </p>
          ) : null}
          <JsonView key={e.id} text={d.json} />
        </div>
        <div className="flex min-h-0 flex-col gap-4">
          <HeadersView headers={d.headers} reveal={d.reveal} onReveal={(r) => store.getState().ui.setReveal(r)} />
          <LintList lints={d.lints} otherLints={d.otherLints} />
          <SnapshotDiff diff={d.diff} onSelect={select} />
        </div>
      </div>
    </section>
  );
}
