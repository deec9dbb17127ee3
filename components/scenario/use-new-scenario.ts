'use client';

import { useState } from 'react';
import { createControlClient } from '@/lib/client/control-client';
import { newScenarioYaml } from '@/lib/scenario/new-scenario';

/**
 * Create a saved scenario from the starter template. Saving to an id that exists would replace
 * that file, so the id is looked up first and a taken one is refused here.
 */
export function useNewScenario() {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  /** Resolves with the new id when the file was created. */
  async function create(id: string): Promise<string | undefined> {
    setBusy(true);
    setError(undefined);
    const client = createControlClient();
    const existing = await client.source(id);
    if (existing.ok) {
      setBusy(false);
      setError(`A scenario with id "${id}" already exists`);
      return undefined;
    }
    const saved = await client.save(id, newScenarioYaml(id));
    setBusy(false);
    if (!saved.ok) {
      setError(`Not created: ${saved.issues[0]?.message ?? saved.error}`);
      return undefined;
    }
    return id;
  }

  return { create, error, busy };
}
