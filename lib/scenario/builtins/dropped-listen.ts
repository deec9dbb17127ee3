import type { ScenarioInput } from '../schema';
import { objectSchema } from './schema-helpers';

/**
 * `dropped-listen`: a proxy that cuts long-lived streams. Every `subscriptions/listen` stream
 * is cut after two events (the acknowledgement and one notification), without the final
 * response. 2026-07-28 has no resumption: the client must open a new listen (no
 * Last-Event-ID) and refetch what it may have missed with tasks/get and tools/list.
 */
export const droppedListenScenario: ScenarioInput = {
  id: 'dropped-listen',
  name: 'Dropped listen streams',
  description:
    'Every subscriptions/listen stream is cut after 2 events (the acknowledgement and one notification) without a final response, like a proxy with a short idle timeout. ' +
    'A client must notice the drop, listen again without Last-Event-ID (2026-07-28 has no resumption) and refetch state with tasks/get and tools/list.',
  server: {
    name: 'loupe-builds',
    version: '1.0.0',
    title: 'Build server',
    instructions: 'build_project runs as a task; follow it with subscriptions/listen (taskIds) or tasks/get. install_plugin changes the tool list.',
  },
  settings: { pollIntervalMs: 1_000, keepAliveMs: 5_000 },
  tools: [
    {
      name: 'build_project',
      title: 'Build project',
      description: 'Resolves dependencies, compiles and runs the tests of a project. Runs only as a task.',
      inputSchema: objectSchema({ project: { type: 'string', description: 'Project name' } }, { required: ['project'] }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      task: {
        mode: 'required',
        steps: [
          { status: 'working', statusMessage: 'Resolving dependencies of {{args.project}}', delayMs: 1_500 },
          { status: 'working', statusMessage: 'Compiling {{args.project}}', delayMs: 1_500 },
          { status: 'working', statusMessage: 'Running the tests', delayMs: 1_500 },
          {
            result: {
              content: [{ type: 'text', text: 'Built {{args.project}}: 128 tests passed.' }],
              structuredContent: { project: '{{args.project}}', testsPassed: 128 },
            },
          },
        ],
      },
    },
    {
      name: 'install_plugin',
      title: 'Install plugin',
      description: 'Installs a build plugin; the tool list changes (tools/list_changed on listen streams).',
      inputSchema: objectSchema({ plugin: { type: 'string' } }, { required: ['plugin'] }),
      emit: ['toolsListChanged'],
      result: { content: [{ type: 'text', text: 'Installed {{args.plugin}}.' }] },
    },
  ],
  faults: [{ name: 'proxy-cuts-listen', match: { method: 'subscriptions/listen' }, action: { kind: 'drop', afterEvents: 2 } }],
};
