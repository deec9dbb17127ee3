import { ERROR, EXT, declaresExtension } from '../../protocol';
import { fail, type Outcome, type RequestContext } from '../context';
import type { Handler } from './index';
import { notesOf } from './list-notes';
import { toolError, toolResult } from './result';

/**
 * The demo's MCP App tools. `notes_timeline` feeds the `ui://notes/timeline.html` view: for a
 * client that declared the `io.modelcontextprotocol/ui` extension the result carries the notes
 * in structuredContent (what the view draws) and a one-line summary for the model; any other
 * client gets the whole timeline as text and no structuredContent, the fallback a host without
 * apps shows. `notes_detail` is app-only (visibility ["app"]): the view calls it for a note's body.
 */

/** Whether this request can render the app (2025-11-25 clients see the binding unconditionally). */
function rendersApps(ctx: RequestContext): boolean {
  return ctx.era === 'legacy' || declaresExtension(ctx.caps, EXT.ui);
}

/** notes_timeline: the notes oldest first, as structuredContent for the app view or as text. */
export const notesTimeline: Handler = async (core, ctx, _tool, args): Promise<Outcome> => {
  const query = args.query;
  if (query !== undefined && typeof query !== 'string') return fail(ERROR.invalidParams, 'Invalid params: query must be a string');
  const needle = (query ?? '').trim().toLowerCase();
  const notes = notesOf(core)
    .filter((n) => !needle || n.title.toLowerCase().includes(needle) || n.body.toLowerCase().includes(needle))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const day = (iso: string) => iso.slice(0, 10);
  const first = notes.at(0);
  const last = notes.at(-1);
  const range = first && last ? `${day(first.createdAt)} to ${day(last.createdAt)}` : '';
  const head = notes.length === 0 ? 'No notes to put on the timeline.' : `Timeline of ${notes.length} note${notes.length === 1 ? '' : 's'}, ${range}`;
  if (!rendersApps(ctx)) {
    return toolResult([`${head}${notes.length ? ':' : ''}`, ...notes.map((n) => `${day(n.createdAt)}  ${n.id}  ${n.title}`)].join('\n'));
  }
  const refs = notes.map(({ id, title, createdAt }) => ({ id, title, createdAt }));
  return toolResult(`${head} (shown in the notes timeline view).`, {
    notes: refs,
    count: refs.length,
    ...(first && last ? { from: first.createdAt, to: last.createdAt } : {}),
  });
};

/** notes_detail (app-only): one note with its body, or a tool error for an unknown id. */
export const noteDetail: Handler = async (core, _ctx, _tool, args): Promise<Outcome> => {
  const id = args.noteId;
  if (typeof id !== 'string') return fail(ERROR.invalidParams, 'Invalid params: noteId must be a string');
  const note = notesOf(core).find((n) => n.id === id);
  if (!note) return toolError(`No note with id "${id}" (it may have been deleted).`);
  return toolResult(`${note.title} (${note.createdAt.slice(0, 10)}): ${note.body}`, { note });
};
