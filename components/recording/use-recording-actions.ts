'use client';

import { useState } from 'react';
import { createControlClient } from '@/lib/client/control-client';
import { startServerReplay } from '@/lib/recording/autosave';
import { serializeRecording, type Recording } from '@/lib/recording/schema';
import { recordingToScenario, recordingToScenarioYaml } from '@/lib/recording/to-scenario';

/**
 * The viewer's two actions on the running Loupe (both need the launch-token cookie): convert
 * the recording into a saved scenario and open it in the control room, or serve it as a mock
 * at `/mcp/replay/<id>`.
 */

/** Where an action stands: idle, running, failed (with why), or done (with the page or endpoint it made). */
export type ActionState = { phase: 'idle' } | { phase: 'busy' } | { phase: 'error'; message: string } | { phase: 'done'; path: string; exchanges?: number };

const explain = (status: number, error: string) =>
  status === 401 ? 'This needs Loupe’s access token: open the URL printed by npm start (…?token=…) once in this browser, then try again.' : error;

/** Convert and replay actions for one recording, with their progress. */
export function useRecordingActions(recording: Recording) {
  const [convert, setConvert] = useState<ActionState>({ phase: 'idle' });
  const [replay, setReplay] = useState<ActionState>({ phase: 'idle' });

  async function toScenario() {
    setConvert({ phase: 'busy' });
    const control = createControlClient();
    const list = await control.list();
    if (!list.ok) return setConvert({ phase: 'error', message: explain(list.status, list.error) });
    const taken = new Set(list.data.scenarios.map((s) => s.id));
    const base = String(recordingToScenario(recording).id).slice(0, 56);
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
    const saved = await control.save(id, recordingToScenarioYaml(recording, { id }));
    if (!saved.ok)
      return setConvert({
        phase: 'error',
        message: explain(
          saved.status,
          saved.issues.length ? `${saved.error}: ${saved.issues.map((i) => `line ${i.line}: ${i.message}`).join('; ')}` : saved.error,
        ),
      });
    setConvert({ phase: 'done', path: `/scenarios/${id}` });
    window.location.assign(`/scenarios/${id}`);
  }

  async function serve() {
    setReplay({ phase: 'busy' });
    const out = await startServerReplay(serializeRecording(recording));
    setReplay(out.ok ? { phase: 'done', path: out.path, exchanges: out.exchanges } : { phase: 'error', message: explain(out.status, out.error) });
  }

  return { convert, replay, toScenario, serve };
}
