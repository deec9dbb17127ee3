import type { ScenarioInput } from '../schema';
import { objectSchema } from './schema-helpers';

/**
 * `legacy-server`: a server that only speaks 2025-11-25. It answers `initialize` and offers the
 * experimental tasks of that revision (`execution.taskSupport`, `params.task`, tasks/result);
 * a 2026-07-28 request gets -32022 with `supported: ['2025-11-25']`, which a modern client
 * should read as "fall back to the old handshake".
 */
export const legacyServerScenario: ScenarioInput = {
  id: 'legacy-server',
  name: 'Legacy 2025-11-25 server',
  description:
    'Speaks 2025-11-25 only: initialize, then experimental tasks (execution.taskSupport optional or required, params.task, tasks/get|result|list|cancel). ' +
    'A 2026-07-28 request gets HTTP 400 with -32022 and data.supported ["2025-11-25"]: a client that supports both revisions falls back to initialize.',
  server: { name: 'loupe-legacy-docs', version: '0.9.0', title: 'Legacy documents', instructions: 'Documents service (MCP 2025-11-25).' },
  supportedVersions: ['2025-11-25'],
  settings: { legacy: true, pollIntervalMs: 1_000, taskTtlMs: 600_000 },
  tools: [
    {
      name: 'lookup_word',
      title: 'Look up a word',
      description: 'Dictionary definition of a word.',
      inputSchema: objectSchema({ word: { type: 'string' } }, { required: ['word'] }),
      annotations: { readOnlyHint: true },
      result: { content: [{ type: 'text', text: '{{args.word}}: a word worth looking up.' }] },
    },
    {
      name: 'summarize_document',
      title: 'Summarize document',
      description: 'Summarizes a document; runs inline, or as a task when the call asks for one (execution.taskSupport: optional).',
      inputSchema: objectSchema({ documentId: { type: 'string' } }, { required: ['documentId'] }),
      annotations: { readOnlyHint: true },
      task: {
        mode: 'declared',
        steps: [
          { status: 'working', statusMessage: 'Reading {{args.documentId}}', delayMs: 500 },
          { result: { content: [{ type: 'text', text: 'Summary of {{args.documentId}}: three findings and one open question.' }] } },
        ],
      },
    },
    {
      name: 'transcode_video',
      title: 'Transcode video',
      description: 'Transcodes a video; task-augmented calls only (execution.taskSupport: required).',
      inputSchema: objectSchema({ videoId: { type: 'string' }, format: { type: 'string', enum: ['mp4', 'webm'] } }, { required: ['videoId', 'format'] }),
      annotations: { readOnlyHint: false },
      task: {
        mode: 'required',
        steps: [
          { status: 'working', statusMessage: 'Transcoding {{args.videoId}} to {{args.format}}', delayMs: 1_000 },
          { result: { content: [{ type: 'text', text: 'Transcoded {{args.videoId}} to {{args.format}}.' }] } },
        ],
      },
    },
  ],
};
