'use client';

import { useEffect, useMemo, useState } from 'react';
import { useInspector } from '@/components/inspector/use-inspector';
import type { Tool } from '@/lib/protocol';
import { ActionButton } from '@/components/ui/ActionButton';
import { InputRequestsPanel } from '@/components/elicitation/InputRequestsPanel';
import type { FieldValue } from '@/lib/client/elicitation-form';
import { buildArguments, describeArguments, initialArgValues, parseRawArguments, type ArgValues } from '@/lib/client/tool-arguments';
import { ToolAppView } from '@/components/apps/ToolAppView';
import { ArgumentsForm } from './ArgumentsForm';
import { OutcomeView } from './OutcomeView';
import { MAX_ROUNDS, useToolCall } from './use-tool-call';
import { CallProgressView } from './CallProgressView';
import { NameText } from '@/components/ui/NameText';

/**
 * Calling one tool: the argument form (or raw JSON), the "run as task" switch, the call, the
 * MRTR rounds answered in place with a visible round counter and bound, and the outcome.
 */

/** The call form of one tool; `taskCapable` offers running it as a task. */
export function ToolCallForm({ tool, taskCapable }: { tool: Tool; taskCapable: boolean }) {
  const fields = useMemo(() => describeArguments(tool.inputSchema), [tool.inputSchema]);
  const [values, setValues] = useState<ArgValues>(() => initialArgValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [raw, setRaw] = useState(false);
  const [rawText, setRawText] = useState('{}');
  const [rawError, setRawError] = useState<string>();
  const [asTask, setAsTask] = useState(false);
  const { state, call, submit, abandon, reset, cancel } = useToolCall(tool.name);
  const setPanel = useInspector((s) => s.ui.setPanel);
  const createdTask = state.phase === 'done' && state.outcome.type === 'task';
  // A call that became a task is followed in the Tasks tab: show it there, input form and all.
  useEffect(() => {
    if (createdTask) setPanel('tasks');
  }, [createdTask, setPanel]);
  const busy = state.phase === 'calling' || state.phase === 'input';
  // The arguments of the latest call, numbered so each call mounts a fresh app view.
  const [appCall, setAppCall] = useState<{ n: number; args: Record<string, unknown> }>();
  const start = (args: Record<string, unknown>, task: boolean) => {
    setAppCall((c) => ({ n: (c?.n ?? 0) + 1, args }));
    void call(args, task);
  };

  const toggleRaw = (on: boolean) => {
    if (on) {
      const built = buildArguments(fields, values);
      setRawText(JSON.stringify(built.ok ? built.args : {}, null, 2));
    }
    setRaw(on);
  };

  const onCall = () => {
    if (raw) {
      const parsed = parseRawArguments(rawText);
      if (!parsed.ok) return setRawError(parsed.error);
      setRawError(undefined);
      return start(parsed.args, asTask);
    }
    const built = buildArguments(fields, values);
    if (!built.ok) return setErrors(built.errors);
    setErrors({});
    start(built.args, asTask);
  };

  return (
    <section data-testid="tool-call-form" data-tool={tool.name} className="space-y-4 rounded-lg border border-border bg-surface p-4">
      <header className="space-y-1">
        <h3 className="font-mono text-sm font-semibold">
          <NameText text={tool.name} />
        </h3>
        {tool.description ? <p className="text-xs text-muted">{tool.description}</p> : null}
      </header>
      <ArgumentsForm
        fields={fields}
        values={values}
        errors={errors}
        onChange={(key: string, v: FieldValue) => setValues((prev) => ({ ...prev, [key]: v }))}
        raw={raw}
        rawText={rawText}
        rawError={rawError}
        onRawChange={setRawText}
        onToggleRaw={toggleRaw}
        idPrefix={`arg-${tool.name}`}
      />
      <div className="flex flex-wrap items-center gap-3">
        <ActionButton action="call" tone="primary" data-testid="call-tool" disabled={busy} onClick={onCall}>
          {asTask ? 'Call as task' : 'Call'}
        </ActionButton>
        <label
          className={`flex cursor-pointer items-center gap-2 rounded-md border px-3 py-1.5 text-sm font-medium ${asTask ? 'border-accent bg-accent/10 text-accent' : 'border-border hover:bg-surface-muted'}`}
          title={
            taskCapable
              ? 'Declare the tasks extension on this call; the server decides whether it becomes a task'
              : 'The server does not advertise the tasks extension'
          }
        >
          <input type="checkbox" data-testid="run-as-task" className="size-4 accent-accent" checked={asTask} onChange={(e) => setAsTask(e.target.checked)} />
          Run as task
          <span className="text-xs font-normal text-muted">{taskCapable ? '(server supports tasks)' : '(not advertised)'}</span>
        </label>
        {state.phase !== 'idle' && !busy ? (
          <ActionButton action="clear" onClick={reset}>
            Clear
          </ActionButton>
        ) : null}
      </div>
      {state.phase === 'calling' || state.phase === 'input' ? (
        <p data-testid="mrtr-round" data-round={state.round} className="text-xs text-muted">
          Round {state.round} of at most {MAX_ROUNDS}
          {state.phase === 'calling' ? ' — waiting for the server…' : ' — the server needs input before it can answer'}
        </p>
      ) : null}
      {state.phase === 'calling' ? (
        <div className="flex flex-wrap items-center gap-2">
          {state.progress ? <CallProgressView progress={state.progress} /> : null}
          <ActionButton action="cancel-call" data-testid="cancel-call" onClick={cancel}>
            Cancel
          </ActionButton>
        </div>
      ) : null}
      {state.phase === 'input' ? (
        <div className="space-y-2">
          <InputRequestsPanel key={state.round} inputRequests={state.inputRequests} onSubmit={submit} onRefuse={abandon} />
          <ActionButton action="abandon" tone="danger" onClick={abandon}>
            Stop (do not retry)
          </ActionButton>
        </div>
      ) : null}
      {state.phase === 'done' ? <OutcomeView outcome={state.outcome} taskFp={state.taskFp} /> : null}
      {appCall && state.phase !== 'idle' ? (
        <ToolAppView key={appCall.n} tool={tool} input={appCall.args} outcome={state.phase === 'done' ? state.outcome : undefined} />
      ) : null}
    </section>
  );
}
