'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { ScenarioIssue } from '@/lib/protocol/loupe-api';
import { useControlRoomContext } from './use-control-room';

/**
 * The scenario's YAML as stored on the server, and the editor's actions on it: save (the server
 * validates again and answers the issues with their lines), revert unsaved edits, reset the
 * running scenario, and duplicate it under a new id.
 */

/** The stored YAML: loading, failed to load, or ready (with a revision that grows each time the text is replaced). */
export type SourceState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; text: string; builtin: boolean; revision: number };

/** What the last action did, for the toolbar's status line. */
export type ActionNote = { tone: 'ok' | 'error' | 'busy'; text: string } | undefined;

/** The source of the enclosing control room's scenario and the save, reset and duplicate actions on it. */
export function useScenarioSource() {
  const { client, scenarioId, store } = useControlRoomContext();
  const [source, setSource] = useState<SourceState>({ status: 'loading' });
  const [note, setNote] = useState<ActionNote>();
  const [serverIssues, setServerIssues] = useState<ScenarioIssue[]>([]);
  const [dirty, setDirty] = useState(false);
  const current = useRef('');

  useEffect(() => {
    let cancelled = false;
    void client.source(scenarioId).then((reply) => {
      if (cancelled) return;
      if (!reply.ok) return setSource({ status: 'error', message: reply.error });
      current.current = reply.data.text;
      setSource({ status: 'ready', text: reply.data.text, builtin: reply.data.builtin, revision: 1 });
    });
    return () => {
      cancelled = true;
    };
  }, [client, scenarioId]);

  /** Put the stored file back in the editor, dropping unsaved edits; the running mock is untouched. */
  async function revert(): Promise<void> {
    const reply = await client.source(scenarioId);
    if (!reply.ok) return setNote({ tone: 'error', text: `Could not reload the file: ${reply.error}` });
    current.current = reply.data.text;
    setSource((s) => ({ status: 'ready', text: reply.data.text, builtin: reply.data.builtin, revision: s.status === 'ready' ? s.revision + 1 : 1 }));
    setDirty(false);
    setServerIssues([]);
    setNote({ tone: 'ok', text: `Reverted to the saved ${scenarioId}.yaml; tasks and journal kept` });
  }

  /** The editor reports every change here. */
  const edited = useCallback((text: string) => {
    current.current = text;
    setDirty(true);
  }, []);

  async function save(): Promise<void> {
    setNote({ tone: 'busy', text: 'Saving…' });
    const reply = await client.save(scenarioId, current.current);
    if (!reply.ok) {
      setServerIssues(reply.issues);
      return setNote({ tone: 'error', text: reply.issues.length ? `Not saved: ${reply.issues.length} error(s) in the file` : `Not saved: ${reply.error}` });
    }
    setServerIssues([]);
    setDirty(false);
    // A scenario whose file did not validate was not running: its feed starts now.
    store.getState().reconnect();
    setNote({ tone: 'ok', text: `Saved ${scenarioId}.yaml; the mock now serves this version` });
  }

  async function reset(): Promise<void> {
    setNote({ tone: 'busy', text: 'Resetting…' });
    const reply = await client.reset(scenarioId);
    setNote(
      reply.ok ? { tone: 'ok', text: 'Reset: state, tasks, ledger, nonces and journal cleared' } : { tone: 'error', text: `Reset failed: ${reply.error}` },
    );
  }

  /** Copy the scenario under `newId`; resolves with the new id when it was created. */
  async function duplicate(newId: string): Promise<string | undefined> {
    setNote({ tone: 'busy', text: `Duplicating as ${newId}…` });
    const reply = await client.duplicate(scenarioId, newId);
    if (!reply.ok) {
      setNote({ tone: 'error', text: `Not duplicated: ${reply.error}` });
      return undefined;
    }
    setNote({ tone: 'ok', text: `Created ${reply.data.id}` });
    return reply.data.id;
  }

  return { source, note, serverIssues, dirty, edited, save, reset, revert, duplicate };
}
