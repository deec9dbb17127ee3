import type { ScenarioInput } from '../schema';
import { objectSchema } from './schema-helpers';

/**
 * `cancel-resistant`: workers that do not stop when asked. A database migration acknowledges
 * tasks/cancel but keeps working for three more polls before it reports cancelled; an archive
 * export acknowledges the cancel and finishes anyway. A cancel acknowledgement is not a final
 * state: the client must keep polling until the task says so.
 */
export const cancelResistantScenario: ScenarioInput = {
  id: 'cancel-resistant',
  name: 'Cancel-resistant workers',
  description:
    'migrate_database acknowledges tasks/cancel but stays working for the next 3 polls and reports cancelled on the 4th; export_archive acknowledges the cancel and completes anyway. ' +
    'A client must treat the cancel acknowledgement as a request, keep polling to a terminal status, and accept a completed result after cancelling.',
  server: {
    name: 'loupe-ops',
    version: '1.0.0',
    title: 'Ops workers',
    instructions: 'Both tools run as tasks. Cancelling is best effort: poll tasks/get until the task reaches a terminal status.',
  },
  settings: { pollIntervalMs: 500 },
  tools: [
    {
      name: 'migrate_database',
      title: 'Migrate database',
      description: 'Copies every table to the new schema. Cancelling takes effect only after the current batch is written.',
      inputSchema: objectSchema({ database: { type: 'string', description: 'Database name' } }, { required: ['database'] }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      task: {
        mode: 'required',
        pollIntervalMs: 500,
        cancel: { policy: 'ignore', ignorePolls: 3 },
        steps: [
          { status: 'working', statusMessage: 'Copying table users of {{args.database}}', delayMs: 60_000 },
          { status: 'working', statusMessage: 'Copying table orders of {{args.database}}', delayMs: 60_000 },
          {
            result: {
              content: [{ type: 'text', text: 'Migrated {{args.database}}: 2 tables copied.' }],
              structuredContent: { database: '{{args.database}}', tables: 2 },
            },
          },
        ],
      },
    },
    {
      name: 'export_archive',
      title: 'Export archive',
      description: 'Packs a project into an archive and uploads it. Once started it cannot be stopped: a cancel is acknowledged and the export completes.',
      inputSchema: objectSchema({ project: { type: 'string', description: 'Project name' } }, { required: ['project'] }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      task: {
        mode: 'required',
        pollIntervalMs: 500,
        cancel: { policy: 'finish', ignorePolls: 0 },
        steps: [
          { status: 'working', statusMessage: 'Packing {{args.project}}', delayMs: 1_500 },
          { status: 'working', statusMessage: 'Uploading the archive', delayMs: 1_500 },
          {
            statusMessage: 'Export finished although a cancel was requested',
            result: {
              content: [{ type: 'text', text: 'Exported {{args.project}} to archive-{{args.project}}.tar.gz.' }],
              structuredContent: { archive: 'archive-{{args.project}}.tar.gz' },
            },
          },
        ],
      },
    },
  ],
};
