'use client';

import { useMemo, useRef, useState } from 'react';
import { classifyInputRequest, type InputKind } from '@/lib/client/input-answers';
import type { InputResponses } from '@/lib/protocol';

/** How answers leave the panel: all keys at once (MRTR retry) or each as it comes (tasks/update allows partial answers). */
export type SubmitMode = 'all' | 'each';

/** One input request of the panel: its key, what kind of answer it needs, and whether it has one. */
export interface InputRequestEntry {
  key: string;
  kind: InputKind;
  answered: boolean;
  /** A short label of the answer given (accept, decline, reply, 2 roots...). */
  summary?: string;
}

function summarize(answer: unknown): string {
  const a = (answer ?? {}) as Record<string, unknown>;
  if (typeof a.action === 'string') return a.action;
  if (Array.isArray(a.roots)) return `${a.roots.length} root${a.roots.length === 1 ? '' : 's'}`;
  if (a.role === 'assistant') return 'reply';
  return 'answered';
}

/**
 * Answers to a map of input requests, keyed like the requests. With mode `all`, `onSubmit` gets
 * every answer once each key has one (and again when an answer is re-given, e.g. a URL Retry);
 * with `each`, every answer is submitted on its own. Keys that leave the map are forgotten, keys
 * that stay keep their answer, so a task's repeated polls never ask twice.
 */
export function useInputRequests(inputRequests: Record<string, unknown>, onSubmit: (responses: InputResponses) => void, mode: SubmitMode = 'all') {
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  const latest = useRef(answers);
  const keys = useMemo(() => Object.keys(inputRequests), [inputRequests]);
  const entries: InputRequestEntry[] = useMemo(
    () =>
      keys.map((key) => ({
        key,
        kind: classifyInputRequest(inputRequests[key]),
        answered: key in answers,
        summary: key in answers ? summarize(answers[key]) : undefined,
      })),
    [keys, inputRequests, answers],
  );

  const answer = (key: string, value: unknown) => {
    const next: Record<string, unknown> = {};
    for (const k of keys) if (k in latest.current) next[k] = latest.current[k];
    next[key] = value;
    latest.current = next;
    setAnswers(next);
    if (mode === 'each') onSubmit({ [key]: value });
    else if (keys.every((k) => k in next)) onSubmit(next);
  };

  return { entries, answer, pending: entries.filter((e) => !e.answered).length };
}
