import type { ToolSpec } from '../../scenario/schema';
import type { EngineCore, Outcome, RequestContext } from '../context';
import { charge } from './charge';
import { deleteNote } from './delete-note';
import { listNotes } from './list-notes';
import { noteDetail, notesTimeline } from './notes-timeline';
import { workspaceRead } from './workspace-read';

/** A built-in tool behaviour a scenario can name with `handler:`. */
export type Handler = (core: EngineCore, ctx: RequestContext, tool: ToolSpec, args: Record<string, unknown>) => Promise<Outcome>;

/** Registry of built-in handlers by name. */
export const HANDLERS: Record<string, Handler> = {
  charge,
  delete_note: deleteNote,
  list_notes: listNotes,
  notes_timeline: notesTimeline,
  note_detail: noteDetail,
  workspace_read: workspaceRead,
};
