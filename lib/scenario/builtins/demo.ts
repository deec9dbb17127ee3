import type { ScenarioInput } from '../schema';
import { NOTES_TIMELINE_HTML } from './generated/notes-timeline-html';
import { INSTRUCTIONS, NOTES, NOTES_INDEX, WORKSPACES } from './demo-content';
import { objectSchema } from './schema-helpers';

/**
 * The built-in `demo` scenario, served on `POST /mcp`: a report task that asks for approval
 * mid-flight, a destructive delete confirmed through MRTR with a one-time nonce, an idempotent
 * charge on a durable ledger, a workspace read whose scope travels in an argument, and the notes
 * timeline MCP App. Settings are spelled out at their defaults so the file documents them. The
 * notes, workspace files and instructions are in demo-content.ts.
 */

const text = (t: string) => ({ type: 'text' as const, text: t });

const TIMELINE_URI = 'ui://notes/timeline.html';

/** The demo scenario as authored (defaults applied when the built-ins are loaded). */
export const demoScenario: ScenarioInput = {
  id: 'demo',
  name: 'Loupe demo',
  description:
    'Seed 000: tasks with elicitation, MRTR confirmation with a one-time nonce, an idempotent charge, explicit workspace scope and the notes timeline MCP App.',
  server: { name: 'loupe-demo', version: '0.1.0', title: 'Loupe demo', instructions: INSTRUCTIONS },
  supportedVersions: ['2026-07-28', '2025-11-25'],
  settings: {
    discoverTtlMs: 300_000,
    discoverCacheScope: 'public',
    listTtlMs: 60_000,
    toolOrder: 'name',
    taskTtlMs: 900_000,
    pollIntervalMs: 1_000,
    requestStateTtlSeconds: 300,
    replayStoreMaxEntries: 1_000,
  },
  tools: [
    {
      name: 'generate_report',
      title: 'Generate report',
      description:
        'Writes a report about the notes. Runs only as a task (declare the io.modelcontextprotocol/tasks extension; without it the call fails with -32021). ' +
        'The task drafts an outline, then waits in input_required for approve_outline (a form with one boolean, "approved"): ' +
        'accept continues, whatever the checkbox says, and the report records the answer; decline completes with a refusal and no report; cancel keeps the task waiting. ' +
        'Then it writes three sections and completes with the report.',
      inputSchema: objectSchema(
        { size: { type: 'string', enum: ['small', 'medium', 'large'], description: 'How long the report should be' } },
        { required: ['size'], closed: true },
      ),
      annotations: { title: 'Generate report', readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      task: {
        mode: 'required',
        steps: [
          { status: 'working', statusMessage: 'Drafting outline for a {{args.size}} report', delayMs: 1_500 },
          {
            status: 'input_required',
            statusMessage: 'Waiting for the outline to be approved',
            inputRequests: {
              approve_outline: {
                method: 'elicitation/create',
                params: {
                  mode: 'form',
                  message: 'The outline for the {{args.size}} report is ready: 1. Highlights, 2. Open questions, 3. Next steps. Approve it to start writing.',
                  requestedSchema: { type: 'object', properties: { approved: { type: 'boolean', title: 'Approve the outline?' } }, required: ['approved'] },
                },
              },
            },
            onDecline: 'complete',
            declineResult: { content: [text('Report not generated: the outline was declined.')], structuredContent: { generated: false, reason: 'declined' } },
            onCancel: 'wait',
          },
          { status: 'working', progress: ['Writing section 1 of 3', 'Writing section 2 of 3', 'Writing section 3 of 3'], delayMs: 1_500 },
          {
            statusMessage: 'Report ready',
            result: {
              content: [
                text(
                  'Report ready: "Notes report ({{args.size}})" with 3 sections: Highlights, Open questions, Next steps. Outline approved: {{inputs.approve_outline.content.approved}}.',
                ),
              ],
              structuredContent: { generated: true, title: 'Notes report ({{args.size}})', size: '{{args.size}}', sections: 3 },
            },
          },
        ],
      },
    },
    {
      name: 'delete_note',
      title: 'Delete note',
      description:
        'Deletes a note permanently. The first call answers input_required with a form asking the user to confirm (needs the elicitation form capability); ' +
        'retry with the answer and the requestState exactly as received. accept with confirm=true deletes; decline (or confirm=false) deletes nothing; ' +
        'cancel deletes nothing and the same confirmation can be answered again until it expires (300 s). A confirmation is spent once: a replay is refused.',
      inputSchema: objectSchema(
        { noteId: { type: 'string', description: 'Id of the note, e.g. note-1 (see search_notes)' } },
        { required: ['noteId'], closed: true },
      ),
      annotations: { title: 'Delete note', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      handler: 'delete_note',
    },
    {
      name: 'charge',
      title: 'Charge account',
      description:
        'Charges an account an amount in cents. Side-effecting: send an idempotencyKey and every retry with that key returns the original receipt without charging again ' +
        '(a key reused for a different account or amount is refused). Without a key each call charges again, so it is not safe to retry.',
      inputSchema: objectSchema(
        {
          account: { type: 'string', description: 'Account to charge, e.g. acct-7' },
          amountCents: { type: 'integer', minimum: 1, description: 'Amount in cents (at least 1)' },
          idempotencyKey: { type: 'string', description: 'Unique key for this charge; reuse it only to retry the same charge' },
        },
        { required: ['account', 'amountCents'], closed: true },
      ),
      annotations: { title: 'Charge account', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      handler: 'charge',
    },
    {
      name: 'workspace_read',
      title: 'Read workspace file',
      description:
        'Reads a text file from a workspace. Pass the workspace in workspaceUri (file:///workspace/demo) and a path relative to it (e.g. notes/plan.md). ' +
        'Absolute paths, ".." segments, encoded separators and anything outside the workspace are refused.',
      inputSchema: objectSchema(
        {
          workspaceUri: { type: 'string', format: 'uri', description: 'file: URI of the workspace, e.g. file:///workspace/demo' },
          path: { type: 'string', description: 'Path relative to the workspace, e.g. README.md' },
        },
        { required: ['workspaceUri', 'path'], closed: true },
      ),
      annotations: { title: 'Read workspace file', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: 'workspace_read',
      options: { allowedWorkspaces: ['file:///workspace/demo'] },
    },
    {
      name: 'search_notes',
      title: 'Search notes',
      description: 'Lists the notes, newest state included (deleted notes disappear). An optional query filters by title and body, case-insensitively.',
      inputSchema: objectSchema({ query: { type: 'string', description: 'Text to look for in titles and bodies' } }, { required: [], closed: true }),
      annotations: { title: 'Search notes', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: 'list_notes',
    },
    {
      name: 'notes_timeline',
      title: 'Notes timeline',
      description:
        'Shows the notes on a timeline, oldest first; an optional query filters by title and body. An MCP App: a host that declares the io.modelcontextprotocol/ui ' +
        'extension renders ui://notes/timeline.html with the result (structuredContent.notes), where opening a note calls notes_detail; any other client gets the timeline as text.',
      inputSchema: objectSchema({ query: { type: 'string', description: 'Text to look for in titles and bodies' } }, { required: [], closed: true }),
      annotations: { title: 'Notes timeline', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      ui: { resourceUri: TIMELINE_URI },
      handler: 'notes_timeline',
    },
    {
      name: 'notes_detail',
      title: 'Note detail',
      description: 'Returns one note with its body. App-only (visibility ["app"]): the notes timeline view calls it; hosts do not offer it to the model.',
      inputSchema: objectSchema({ noteId: { type: 'string', description: 'Id of the note, e.g. note-1' } }, { required: ['noteId'], closed: true }),
      annotations: { title: 'Note detail', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      ui: { resourceUri: TIMELINE_URI, visibility: ['app'] },
      handler: 'note_detail',
    },
    {
      name: 'echo',
      title: 'Echo',
      description: 'Returns the text it is given. Useful to check a connection.',
      inputSchema: objectSchema({ text: { type: 'string', description: 'Text to echo back' } }, { required: ['text'], closed: true }),
      annotations: { title: 'Echo', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      result: { content: [text('{{args.text}}')] },
    },
  ],
  resources: [
    {
      uri: 'notes://index',
      name: 'notes-index',
      title: 'Notes index',
      description: 'The demo notes as they are when the scenario starts or is reset.',
      mimeType: 'text/markdown',
      text: NOTES_INDEX,
    },
    {
      uri: 'notes://about',
      name: 'notes-about',
      title: 'About the demo',
      description: 'What the demo server shows and how to drive it.',
      mimeType: 'text/plain',
      text: INSTRUCTIONS,
    },
    {
      uri: TIMELINE_URI,
      name: 'notes-timeline',
      title: 'Notes timeline view',
      description: 'The MCP App of notes_timeline: a self-contained page (ext-apps App class) that needs no external origin.',
      mimeType: 'text/html;profile=mcp-app',
      text: NOTES_TIMELINE_HTML,
      ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true },
    },
  ],
  prompts: [
    {
      name: 'summarize_notes',
      title: 'Summarize notes',
      description: 'Asks the model to summarize the notes, optionally in a given style.',
      arguments: [{ name: 'style', description: 'How to write the summary, e.g. "bullet points" or "one paragraph"', required: false }],
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: 'notes://index', mimeType: 'text/markdown', text: NOTES_INDEX } } },
        {
          role: 'user',
          content: { type: 'text', text: 'Summarize the notes above in this style: {{args.style}} (when no style is given, use short bullet points).' },
        },
      ],
    },
  ],
  completions: [{ ref: { type: 'ref/prompt', name: 'summarize_notes' }, argument: 'style', values: ['bullet points', 'one paragraph', 'executive summary'] }],
  state: {
    notes: NOTES,
    workspaces: WORKSPACES,
  },
};
