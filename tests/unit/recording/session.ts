import { createClientSession } from '../../../lib/client/session';
import { createMemoryTransport } from '../../../lib/client/memory-transport';
import { createTrackingTransport } from '../../../lib/client/tracking';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { describeConnection } from '../../../lib/recording/connection';
import { createRecorder } from '../../../lib/recording/recorder';
import type { Recording } from '../../../lib/recording/schema';
import { ScenarioSchema, type ScenarioInput } from '../../../lib/scenario/schema';

/**
 * Records a real session for the recording tests: the inspector's client, tracked, against a
 * mock engine in memory, with credentials on every request (Authorization, a cookie, a
 * `?token=` in the URL, which only the stripped target and a result's status link carry). The scenario is small and fast: a direct tool, an MRTR confirmation,
 * a task that asks for input mid-flight (followed with a listen stream, so task ids also
 * travel in SSE notifications), a progress stream, and a tool that errors.
 */

export const SECRETS: Record<'bearer' | 'cookie' | 'urlToken' | 'apiKey', string> = {
  bearer: 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c',
  cookie: 'sess-7d41a9e0c3b24f5e8a6d1c2b3a4f5e6d',
  urlToken: 'urltok-91b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6',
  apiKey: 'ak-3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b',
};

export const RECORDED_SCENARIO: ScenarioInput = {
  id: 'rec-test',
  server: { name: 'rec-test', version: '1.2.3', title: 'Recording test server' },
  settings: { pollIntervalMs: 20 },
  tools: [
    {
      name: 'echo',
      description: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      result: { content: [{ type: 'text', text: 'echo: {{args.text}}' }] },
    },
    {
      name: 'confirm',
      description: 'asks first',
      inputSchema: { type: 'object' },
      mrtr: {
        rounds: [
          {
            inputRequests: {
              ok: {
                method: 'elicitation/create',
                params: { mode: 'form', message: 'Sure?', requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } } } },
              },
            },
          },
        ],
      },
      result: { content: [{ type: 'text', text: 'confirmed' }] },
    },
    {
      name: 'report',
      description: 'a task that asks for input',
      inputSchema: { type: 'object' },
      task: {
        mode: 'required',
        pollIntervalMs: 20,
        steps: [
          { status: 'working', statusMessage: 'Drafting', delayMs: 60 },
          {
            status: 'input_required',
            statusMessage: 'Approve?',
            inputRequests: {
              approve: {
                method: 'elicitation/create',
                params: { mode: 'form', message: 'Approve the outline?', requestedSchema: { type: 'object', properties: { approved: { type: 'boolean' } } } },
              },
            },
          },
          { status: 'working', statusMessage: 'Writing', delayMs: 60 },
          { statusMessage: 'Done', result: { content: [{ type: 'text', text: 'Report done' }], structuredContent: { sections: 3 } } },
        ],
      },
    },
    {
      name: 'slowly',
      description: 'progress over SSE',
      inputSchema: { type: 'object' },
      progress: {
        steps: [
          { progress: 1, total: 2 },
          { progress: 2, total: 2 },
        ],
        intervalMs: 5,
      },
      result: { content: [{ type: 'text', text: 'slow done; status at https://status.example.test/job?id=7&token=urltok-91b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6' }] },
    },
    { name: 'broken', description: 'always fails', inputSchema: { type: 'object' }, error: { code: -32050, message: 'Broken on purpose' } },
  ],
  resources: [{ uri: 'ui://test/view.html', name: 'view', mimeType: 'text/html;profile=mcp-app', text: '<!doctype html><p>recorded app</p>' }],
};

export interface RecordedSession {
  recording: Recording;
  taskId: string;
  engine: MockEngine;
}

/** Run the session and return its recording (the engine is closed by the caller). */
export async function recordSession(): Promise<RecordedSession> {
  const engine = createMockEngine({ scenario: ScenarioSchema.parse(RECORDED_SCENARIO) });
  const headers = { Authorization: `Bearer ${SECRETS.bearer}`, Cookie: `theme=dark; sid=${SECRETS.cookie}`, 'X-Api-Key': SECRETS.apiKey };
  const target = `http://127.0.0.1/mcp?token=${SECRETS.urlToken}`;
  const recorder = createRecorder({ connection: describeConnection({ target, transport: 'memory', era: 'modern', headers }) });
  const tracked = createTrackingTransport(createMemoryTransport(engine, { url: target, headers }), { sink: recorder.sink, connectionId: 'c1' });
  const session = createClientSession({ transport: tracked, era: 'auto', capabilities: { elicitation: { form: {} } } });
  await session.discover();
  await session.listTools();
  await session.callTool('echo', { text: 'hello' });
  await session.callWithInput('confirm', {}, async (reqs) =>
    Object.fromEntries(Object.keys(reqs).map((k) => [k, { action: 'accept', content: { yes: true } }])),
  );
  await session.callTool('slowly', {}, { onProgress: () => {} });
  await session.callTool('broken', {});
  await session.request('resources/read', { uri: 'ui://test/view.html' });
  const created = await session.callTool('report', {}, { task: true });
  if (created.type !== 'task') throw new Error(`expected a task, got ${JSON.stringify(created)}`);
  const taskId = created.task.taskId;
  const follower = session.followTask(created.task, {
    listen: true,
    answer: async (reqs) => Object.fromEntries(Object.keys(reqs).map((k) => [k, { action: 'accept', content: { approved: true } }])),
    waitMs: 10_000,
  });
  const end = await follower.done;
  if (end.kind !== 'terminal') throw new Error(`task ended as ${end.kind}`);
  recorder.setConnection({ serverInfo: { name: 'rec-test', version: '1.2.3' } });
  // Let the follower close its listen stream, so the recording holds the close.
  await new Promise((r) => setTimeout(r, 30));
  return { recording: recorder.build(), taskId, engine };
}
