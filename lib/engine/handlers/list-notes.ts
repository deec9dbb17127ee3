import { ERROR } from '../../protocol';
import { fail, type EngineCore, type Outcome } from '../context';
import type { Handler } from './index';
import { toolResult } from './result';

/** A note of the demo scenario's `state.notes`. */
interface Note {
  id: string;
  title: string;
  body: string;
  createdAt: string;
}

function isNote(value: unknown): value is Note {
  const n = value as Partial<Note> | null;
  return !!n && typeof n === 'object' && typeof n.id === 'string' && typeof n.title === 'string' && typeof n.body === 'string';
}

/** The scenario's current notes (ill-formed entries in a hand-written scenario are skipped). */
export function notesOf(core: EngineCore): Note[] {
  const raw = core.state.notes;
  return Array.isArray(raw) ? raw.filter(isNote) : [];
}

/** Replace the scenario's notes (a scenario reset restores the initial ones). */
export function setNotes(core: EngineCore, notes: Note[]): void {
  core.state.notes = notes;
}

/**
 * `list_notes`: the current notes, optionally filtered by a case-insensitive `query` on title
 * and body. Read-only; reflects deletions made by `delete_note`.
 */
export const listNotes: Handler = async (core, _ctx, _tool, args): Promise<Outcome> => {
  const query = args.query;
  if (query !== undefined && typeof query !== 'string') return fail(ERROR.invalidParams, 'Invalid params: query must be a string');
  const needle = (query ?? '').trim().toLowerCase();
  const notes = notesOf(core).filter((n) => !needle || n.title.toLowerCase().includes(needle) || n.body.toLowerCase().includes(needle));
  const lines = notes.map((n) => `- ${n.id}: ${n.title} (${n.createdAt})`);
  const head =
    notes.length === 0
      ? needle
        ? `No notes match "${query}".`
        : 'There are no notes.'
      : `${notes.length} note${notes.length === 1 ? '' : 's'}${needle ? ` matching "${query}"` : ''}:`;
  return toolResult([head, ...lines].join('\n'), { notes, count: notes.length });
};
