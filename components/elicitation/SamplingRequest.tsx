'use client';

import { useId, useState, type FormEvent } from 'react';
import { checkSamplingAnswer, contentText, samplingAnswer, type CreateMessageAnswer } from '@/lib/client/input-answers';
import { ActionButton } from '@/components/ui/ActionButton';
import { keyedByContent } from '@/components/ui/content-keys';

interface SamplingRequestProps {
  /** `params` of a `sampling/createMessage` input request. */
  params: Record<string, unknown>;
  /** The hand-written CreateMessageResult. */
  onResult: (result: CreateMessageAnswer) => void;
  /** The user refuses: the client does not retry (sampling has no decline result). */
  onRefuse?: () => void;
}

const INPUT = 'w-full rounded-md border border-border bg-surface px-2.5 py-1.5 text-sm';
const STOP_REASONS = ['endTurn', 'maxTokens', 'stopSequence'];

function Messages({ params }: { params: Record<string, unknown> }) {
  const messages = Array.isArray(params.messages) ? (params.messages as { role?: unknown; content?: unknown }[]) : [];
  return (
    <ol data-testid="sampling-messages" className="space-y-2">
      {keyedByContent(messages, (m) => `${String(m.role)}:${contentText(m.content)}`).map(({ key, item: m }) => (
        <li key={key} data-role={String(m.role)} className="rounded-md border border-border bg-surface-muted p-2 text-sm">
          <span className="mr-2 font-mono text-xs text-muted uppercase">{String(m.role)}</span>
          <span className="whitespace-pre-wrap">{contentText(m.content)}</span>
        </li>
      ))}
    </ol>
  );
}

function Settings({ params }: { params: Record<string, unknown> }) {
  const prefs = (params.modelPreferences ?? {}) as { hints?: { name?: string }[] };
  const tools = Array.isArray(params.tools) ? (params.tools as { name?: string }[]) : [];
  const rows: [string, string][] = [
    ['maxTokens', String(params.maxTokens ?? '—')],
    ...(params.temperature !== undefined ? [['temperature', String(params.temperature)] as [string, string]] : []),
    ...(Array.isArray(params.stopSequences) ? [['stopSequences', (params.stopSequences as string[]).join(', ')] as [string, string]] : []),
    ...(prefs.hints?.length ? [['model hints', prefs.hints.map((h) => h.name).join(', ')] as [string, string]] : []),
    ...(params.includeContext ? [['includeContext', String(params.includeContext)] as [string, string]] : []),
    ...(tools.length ? [['tools', tools.map((t) => t.name).join(', ')] as [string, string]] : []),
  ];
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-xs">
      {rows.map(([k, v]) => (
        <div key={k} className="contents" data-setting={k}>
          <dt className="text-muted">{k}</dt>
          <dd className="font-mono">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A sampling request answered by a person: the conversation, system prompt and limits are shown;
 * the user writes the reply and names the "model"; the result is a CreateMessageResult.
 */
export function SamplingRequest({ params, onResult, onRefuse }: SamplingRequestProps) {
  const id = useId();
  const [text, setText] = useState('');
  const [model, setModel] = useState('human');
  const [stopReason, setStopReason] = useState('endTurn');
  const [attempted, setAttempted] = useState(false);
  const maxTokens = typeof params.maxTokens === 'number' ? params.maxTokens : undefined;
  const check = checkSamplingAnswer(text, model, maxTokens);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setAttempted(true);
    if (Object.keys(check.errors).length === 0) onResult(samplingAnswer(text, model, stopReason));
  };
  return (
    <form data-testid="sampling-request" noValidate onSubmit={submit} className="space-y-3">
      {typeof params.systemPrompt === 'string' ? (
        <p data-testid="sampling-system" className="rounded-md border border-border p-2 text-xs whitespace-pre-wrap">
          <span className="mr-2 font-mono text-muted uppercase">system</span>
          {params.systemPrompt}
        </p>
      ) : null}
      <Messages params={params} />
      <Settings params={params} />
      <label htmlFor={`${id}-text`} className="block text-sm font-medium">
        Reply as the model
      </label>
      <textarea id={`${id}-text`} name="text" rows={4} className={INPUT} value={text} onChange={(e) => setText(e.target.value)} />
      {attempted && check.errors.text ? (
        <p role="alert" data-testid="error-text" className="text-xs text-danger">
          {check.errors.text}
        </p>
      ) : null}
      {check.warnings.map((w) => (
        <p key={w} data-testid="sampling-warning" className="text-xs text-danger">
          {w}
        </p>
      ))}
      <div className="grid grid-cols-2 gap-3">
        <label className="space-y-1 text-sm">
          <span className="font-medium">Model</span>
          <input name="model" className={INPUT} value={model} onChange={(e) => setModel(e.target.value)} />
          {attempted && check.errors.model ? (
            <span role="alert" data-testid="error-model" className="block text-xs text-danger">
              {check.errors.model}
            </span>
          ) : null}
        </label>
        <label className="space-y-1 text-sm">
          <span className="font-medium">Stop reason</span>
          <select name="stopReason" className={INPUT} value={stopReason} onChange={(e) => setStopReason(e.target.value)}>
            {STOP_REASONS.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
      </div>
      <div className="flex gap-2">
        <ActionButton type="submit" tone="primary" action="send">
          Send reply
        </ActionButton>
        {onRefuse ? (
          <ActionButton action="refuse" onClick={onRefuse}>
            Refuse
          </ActionButton>
        ) : null}
      </div>
    </form>
  );
}
