'use client';

import { useEffect, useState } from 'react';
import { createControlClient } from '@/lib/client/control-client';
import type { ScenarioSummary } from '@/lib/protocol/loupe-api';

type ScenarioListState =
  | { status: 'loading' }
  | { status: 'ready'; scenarios: ScenarioSummary[] }
  | { status: 'error'; message: string; unauthorized: boolean };

/** Built-in and saved scenarios, from the control API. */
export function useScenarioList(): ScenarioListState {
  const [state, setState] = useState<ScenarioListState>({ status: 'loading' });
  useEffect(() => {
    let cancelled = false;
    void createControlClient()
      .list()
      .then((reply) => {
        if (cancelled) return;
        setState(
          reply.ok ? { status: 'ready', scenarios: reply.data.scenarios } : { status: 'error', message: reply.error, unauthorized: reply.status === 401 },
        );
      });
    return () => {
      cancelled = true;
    };
  }, []);
  return state;
}
