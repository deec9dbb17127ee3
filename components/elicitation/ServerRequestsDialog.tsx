'use client';

import { answerOf, refusal } from '@/lib/client/interactive-answerer';
import { useInspector } from '@/components/inspector/use-inspector';
import { InputRequestsPanel } from './InputRequestsPanel';

const TITLE = { 'elicitation/create': 'The server asks you', 'sampling/createMessage': 'The server asks for a model reply' } as const;

/**
 * A 2025-11-25 server's own request (elicitation/create, sampling/createMessage) shown where the
 * person is looking: a dialog over the inspector, with the same prompts as MRTR input requests.
 * The answer (or the refusal) goes back as the JSON-RPC response; the oldest request comes first.
 */
export function ServerRequestsDialog() {
  const pending = useInspector((s) => s.serverRequests.pending);
  const settle = useInspector((s) => s.serverRequests.settle);
  const first = pending[0];
  if (!first) return null;
  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center bg-black/30 p-6 pt-24">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="server-request-title"
        data-testid="server-request"
        data-method={first.method}
        className="max-h-[80vh] w-full max-w-xl space-y-3 overflow-auto rounded-xl border border-border bg-surface p-4 shadow-xl"
      >
        <h2 id="server-request-title" className="text-sm font-semibold">
          {TITLE[first.method]} <span className="font-mono text-xs font-normal text-muted">({first.method}, 2025-11-25)</span>
          {pending.length > 1 ? <span className="ml-2 text-xs font-normal text-muted">+{pending.length - 1} more waiting</span> : null}
        </h2>
        <InputRequestsPanel
          key={first.seq}
          inputRequests={{ [first.method]: { method: first.method, params: first.params } }}
          onSubmit={(responses) => settle(first.seq, answerOf(responses[first.method]))}
          onRefuse={() => settle(first.seq, refusal(first.method))}
        />
      </div>
    </div>
  );
}
