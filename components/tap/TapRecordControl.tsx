'use client';

import Link from 'next/link';
import { useState } from 'react';
import { recordingsApiWriter } from '@/lib/recording/autosave';
import { createRecorder } from '@/lib/recording/recorder';
import { redactRecording } from '@/lib/recording/redact';
import { serializeRecording, type Recording } from '@/lib/recording/schema';

type Saved = { state: 'idle' } | { state: 'saving' } | { state: 'saved'; name: string; frames: number } | { state: 'failed'; error: string };

/** The saved file's name: the tap's id and when it started, so saving again replaces the same file. */
function fileName(tapId: string, startedAt: number | undefined): string {
  const stamp = new Date(startedAt ?? Date.now()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return `${tapId.replace(/[^A-Za-z0-9._-]/g, '-')}-${stamp}.loupe.json`;
}

/**
 * Save the tapped session as a Loupe recording (what `--record` writes: the frames, the app
 * views, the lints) into Loupe's saved sessions, redacted like every export, then open it in
 * the recording viewer. Saving again while the tap runs replaces the file with the longer session.
 */
export function TapRecordControl({ tapId, startedAt, recording }: { tapId: string; startedAt?: number; recording: () => Recording | undefined }) {
  const [saved, setSaved] = useState<Saved>({ state: 'idle' });
  const save = async () => {
    const built = recording();
    if (!built?.frames.length) return setSaved({ state: 'failed', error: 'Nothing to save yet: no frame has passed the tap.' });
    setSaved({ state: 'saving' });
    // The live recorder skips the lints (they grow with the session); the saved file carries them.
    const lints = createRecorder({ connection: built.connection, frames: built.frames }).build().lints;
    const name = fileName(tapId, startedAt);
    try {
      await recordingsApiWriter()(name, serializeRecording(redactRecording({ ...built, lints }).recording));
      setSaved({ state: 'saved', name, frames: built.frames.length });
    } catch (e) {
      setSaved({ state: 'failed', error: (e as Error).message });
    }
  };
  return (
    <div className="flex items-center gap-3 text-xs" data-testid="tap-record" data-state={saved.state}>
      <button
        type="button"
        onClick={() => void save()}
        disabled={saved.state === 'saving'}
        data-testid="tap-save-recording"
        className="rounded-md border border-border px-2 py-1 hover:bg-surface-muted disabled:opacity-50"
        title="Save the session so far as a Loupe recording (secrets replaced by pseudonyms)"
      >
        {saved.state === 'saved' ? 'Save again' : 'Save recording'}
      </button>
      {saved.state === 'saved' ? (
        <Link href={`/recording?saved=${encodeURIComponent(saved.name)}`} data-testid="tap-saved-link" className="text-accent hover:underline">
          Open {saved.name} ({saved.frames} frames) in the recording viewer →
        </Link>
      ) : null}
      {saved.state === 'failed' ? (
        <span role="alert" className="text-danger">
          {saved.error}
        </span>
      ) : null}
    </div>
  );
}
