/**
 * The demo's data: the notes the notes app starts with (and returns to on reset), the files of
 * its workspaces, and the text the server shows about itself (instructions, notes index).
 * demo.ts is the server that serves them.
 */

/** The notes the demo starts with. */
export const NOTES = [
  { id: 'note-1', title: 'Quarterly planning', body: 'Agree on the three goals for next quarter and who owns each.', createdAt: '2026-07-01T09:00:00.000Z' },
  {
    id: 'note-2',
    title: 'Release checklist',
    body: 'Tag, changelog, publish, announce. Check the conformance suite first.',
    createdAt: '2026-07-03T14:30:00.000Z',
  },
  {
    id: 'note-3',
    title: 'Tasks extension questions',
    body: 'Which capabilities apply to input requests of a long-running task?',
    createdAt: '2026-07-08T11:15:00.000Z',
  },
  { id: 'note-4', title: 'Grocery list', body: 'Coffee, oat milk, rye bread, lemons.', createdAt: '2026-07-12T18:45:00.000Z' },
  { id: 'note-5', title: 'Retro notes', body: 'Polling every 100 ms was too aggressive; honour pollIntervalMs.', createdAt: '2026-07-20T16:00:00.000Z' },
];

/** The notes as a markdown list (the notes://index resource and the summarize_notes prompt). */
export const NOTES_INDEX = ['# Notes', '', ...NOTES.map((n) => `- **${n.id}** ${n.title} (${n.createdAt.slice(0, 10)})`), ''].join('\n');

/** The server's instructions, also served as notes://about. */
export const INSTRUCTIONS = [
  'Loupe demo server: a small notes app that exercises MCP 2026-07-28 features.',
  '- search_notes lists the notes (optionally filtered by a query); read-only.',
  '- delete_note deletes a note after the user confirms in a form (the call answers input_required first; retry it with the answer and the same requestState).',
  '- generate_report runs only as a task: declare the io.modelcontextprotocol/tasks extension, poll tasks/get, and answer approve_outline with tasks/update.',
  '- charge charges an account; always send an idempotencyKey so that a retry never charges twice.',
  '- workspace_read reads a file: pass the workspace as workspaceUri (file:///workspace/demo) and a relative path.',
  '- notes_timeline shows the notes on a timeline: an MCP App (ui://notes/timeline.html) for hosts that declare the io.modelcontextprotocol/ui extension, plain text for the others.',
  '- notes_detail returns one note with its body; app-only (visibility ["app"]): the timeline view calls it.',
  '- echo returns its text.',
].join('\n');

/** Files of the demo's workspaces, by workspace URI. */
export const WORKSPACES = {
  'file:///workspace/demo': {
    'README.md': '# Demo workspace\n\nFiles the workspace_read tool may read. See notes/plan.md.\n',
    'notes/plan.md': '# Plan\n\n1. Ship the demo scenario.\n2. Record a session.\n3. Share the recording.\n',
  },
  // A sibling whose name extends the demo workspace's: it exists but is never granted, so a
  // string-prefix check ("starts with file:///workspace/demo") would be the bug that leaks it.
  'file:///workspace/demo-private': {
    'secret.txt': 'This file must never be readable through file:///workspace/demo.\n',
  },
};
