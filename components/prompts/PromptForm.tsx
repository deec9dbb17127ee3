'use client';

import { useState } from 'react';
import { getPrompt, promptArguments, type ListedPrompt, type PromptResult } from '@/lib/client/prompts';
import { describeOutcome } from '@/lib/client/results';
import { useInspector } from '@/components/inspector/use-inspector';
import { ArgumentInputs } from '@/components/resources/ArgumentInputs';
import { MessagesView } from './MessagesView';

/** A prompt's argument form (with completion where the server offers it), Get, and the messages returned. */
export function PromptForm({ prompt }: { prompt: ListedPrompt }) {
  const session = useInspector((s) => s.connection.session);
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<PromptResult | { ok: false; problem: string }>();
  const [busy, setBusy] = useState(false);
  const args = prompt.arguments ?? [];
  const { missing } = promptArguments(prompt, values);

  async function get() {
    if (!session) return setResult({ ok: false, problem: 'Not connected' });
    setBusy(true);
    setResult(await getPrompt(session.request, prompt.name, promptArguments(prompt, values).args));
    setBusy(false);
  }

  const problem = result && !result.ok ? (result.problem ?? ('outcome' in result ? describeOutcome(result.outcome) : '')) : undefined;
  return (
    <form
      data-testid="prompt-form"
      data-prompt={prompt.name}
      className="space-y-2 rounded-md border border-border p-2"
      onSubmit={(e) => {
        e.preventDefault();
        void get();
      }}
    >
      <p className="text-sm font-medium">{prompt.title ?? prompt.name}</p>
      {prompt.description ? <p className="text-xs text-muted">{prompt.description}</p> : null}
      <ArgumentInputs
        names={args.map((a) => a.name)}
        values={values}
        onChange={setValues}
        completionRef={{ type: 'ref/prompt', name: prompt.name }}
        required={args.filter((a) => a.required).map((a) => a.name)}
        descriptions={Object.fromEntries(args.map((a) => [a.name, a.description]))}
      />
      <button type="submit" data-testid="get-prompt" disabled={busy || missing.length > 0} className="text-xs text-accent hover:underline disabled:opacity-50">
        {missing.length ? `Fill in ${missing.join(', ')}` : 'Get prompt'}
      </button>
      {problem ? (
        <p role="alert" data-testid="prompt-problem" className="font-mono text-xs text-danger">
          {problem}
        </p>
      ) : null}
      {result?.ok ? <MessagesView messages={result.messages} description={result.description} /> : null}
    </form>
  );
}
