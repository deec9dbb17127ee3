'use client';

import type { CallWithInputOutcome } from '@/lib/client/mrtr';
import { useInspector } from '@/components/inspector/use-inspector';
import { ErrorView, ProblemView, ResultView } from './ResultView';

/** What a tool call ended with, after its MRTR rounds: a result, an error, a task, or no answer. */
export function OutcomeView({ outcome, taskFp }: { outcome: CallWithInputOutcome; taskFp?: string }) {
  const setPanel = useInspector((s) => s.ui.setPanel);
  const rounds =
    outcome.rounds > 1 ? (
      <p className="text-xs text-muted" data-testid="mrtr-rounds">
        after {outcome.rounds} rounds (each retry a new request id with the answers and the requestState as received)
      </p>
    ) : null;
  switch (outcome.type) {
    case 'complete':
      return (
        <div className="space-y-1">
          {rounds}
          <ResultView result={outcome.result} />
        </div>
      );
    case 'error':
      return (
        <div className="space-y-1">
          {rounds}
          <ErrorView error={outcome.error} />
        </div>
      );
    case 'task':
      return (
        <div data-testid="tool-result" data-outcome="task" className="space-y-2 rounded-md border border-accent/40 bg-accent/5 p-3 text-sm">
          <p>
            Task{' '}
            <code className="font-mono" data-testid="created-task-fp">
              {taskFp}
            </code>{' '}
            created: <strong>{outcome.task.status}</strong>
            {outcome.task.statusMessage ? ` — ${outcome.task.statusMessage}` : ''}
          </p>
          <p className="text-xs text-muted">It is polled at the server’s pollIntervalMs until it ends; follow it in the Tasks panel.</p>
          <button type="button" data-testid="open-tasks" className="text-xs text-accent hover:underline" onClick={() => setPanel('tasks')}>
            Open the Tasks panel →
          </button>
        </div>
      );
    case 'abandoned':
      return (
        <ProblemView
          kind="abandoned"
          text={`stopped at round ${outcome.rounds}: ${Object.keys(outcome.inputRequests).join(', ')} left unanswered, so the call was not retried`}
        />
      );
    case 'invalid':
      return <ProblemView kind="invalid" text={outcome.reason} />;
    case 'failure':
      return <ProblemView kind={outcome.reason} text={outcome.message} />;
    default:
      return <ProblemView kind="input_required" text="the server still asks for input" />;
  }
}
