'use client';

import type { InputResponses } from '@/lib/protocol';
import { ActionButton } from '@/components/ui/ActionButton';
import { ElicitationForm } from './ElicitationForm';
import { RootsRequest } from './RootsRequest';
import { SamplingRequest } from './SamplingRequest';
import { UrlElicitation } from './UrlElicitation';
import { useInputRequests, type InputRequestEntry, type SubmitMode } from './use-input-requests';
import { Badge } from '@/components/ui/Badge';

interface InputRequestsPanelProps {
  /** `inputRequests` of an input_required result or an input_required task snapshot. */
  inputRequests: Record<string, unknown>;
  /** Receives the InputResponses (all keys, or one key per call in `each` mode). */
  onSubmit: (responses: InputResponses) => void;
  /** The user gave up on a request that has no decline answer (sampling, roots, a malformed request): do not retry. */
  onRefuse?: (key: string) => void;
  mode?: SubmitMode;
}

const KIND_LABEL = { form: 'form', url: 'URL', sampling: 'sampling', roots: 'roots', invalid: 'invalid' } as const;

function Prompt({ entry, answer, onRefuse }: { entry: InputRequestEntry; answer: (value: unknown) => void; onRefuse?: () => void }) {
  const k = entry.kind;
  if (k.kind === 'form') return <ElicitationForm message={String(k.params.message ?? '')} requestedSchema={k.params.requestedSchema} onResult={answer} />;
  if (k.kind === 'url') return <UrlElicitation message={k.params.message} url={k.params.url} onResult={answer} />;
  if (k.kind === 'sampling') return <SamplingRequest params={k.params} onResult={answer} onRefuse={onRefuse} />;
  if (k.kind === 'roots') return <RootsRequest onResult={answer} onRefuse={onRefuse} />;
  return (
    <div className="space-y-2">
      <p role="alert" data-testid="invalid-request" className="text-sm text-danger">
        This input request cannot be answered: {k.reason}.
      </p>
      {onRefuse ? (
        <ActionButton action="refuse" onClick={onRefuse}>
          Give up on this request
        </ActionButton>
      ) : null}
    </div>
  );
}

/**
 * Every input request of an MRTR round or an input_required task, one prompt per key: forms,
 * URL consent, sampling replies and roots. Remount it (React `key`) for each new MRTR round;
 * keep it mounted across a task's polls so answered keys are not asked again.
 */
export function InputRequestsPanel({ inputRequests, onSubmit, onRefuse, mode = 'all' }: InputRequestsPanelProps) {
  const { entries, answer, pending } = useInputRequests(inputRequests, onSubmit, mode);
  return (
    <div data-testid="input-requests" data-pending={pending} className="space-y-4">
      <p className="text-xs text-muted">
        {entries.length} input request{entries.length === 1 ? '' : 's'}
        {mode === 'all' && pending ? ` · ${pending} waiting for an answer; answers are sent together` : ''}
      </p>
      {entries.map((entry) => (
        <section
          key={entry.key}
          data-key={entry.key}
          data-answered={entry.answered ? 'true' : 'false'}
          className="space-y-3 rounded-lg border border-border bg-surface p-4"
        >
          <header className="flex items-center justify-between gap-2">
            <h3 className="font-mono text-sm font-semibold">{entry.key}</h3>
            <span className="flex gap-1.5 text-xs">
              <span className="rounded-full bg-surface-muted px-2 py-0.5">{KIND_LABEL[entry.kind.kind]}</span>
              {entry.answered ? (
                <Badge data-testid="answered" tone="success">
                  answered: {entry.summary}
                </Badge>
              ) : null}
            </span>
          </header>
          <Prompt entry={entry} answer={(value) => answer(entry.key, value)} onRefuse={onRefuse ? () => onRefuse(entry.key) : undefined} />
        </section>
      ))}
    </div>
  );
}
