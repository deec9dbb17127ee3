import { describe, expect, it } from 'vitest';
import { openRecording } from '../../../lib/recording/schema';
import { recordingToScenarioYaml } from '../../../lib/recording/to-scenario';
import { parseScenario } from '../../../lib/scenario/loader';

/**
 * Recording → scenario keeps what a real server did during a call, in both eras: the question
 * it asked (2025-11-25 elicitation/create on the call's stream; 2026-07-28 input_required then
 * a retry), its progress and logs, the prompts that were only got, and values that are valid MCP
 * but not valid scenario are fitted, with a note saying what changed. The recordings are shaped
 * like `mcp-loupe call --record` writes them against an SDK 1.32.2 server.
 */

type Msg = Record<string, unknown>;
/** One recorded exchange: the request sent at `at`, then each incoming message `gap` ms apart. */
interface Ex {
  at: number;
  body: Msg;
  incoming: Msg[];
  gap?: number;
  conversationId?: string;
}

function recording(exchanges: Ex[], era: 'legacy' | 'modern' = 'legacy') {
  let seq = 0;
  const frames = exchanges.flatMap((x, i) => {
    const base = { connectionId: 'c1', exchangeId: `c1:${i + 1}`, method: x.body.method, ...(x.conversationId ? { conversationId: x.conversationId } : {}) };
    const id = typeof x.body.id === 'number' ? { rpcId: x.body.id } : {};
    return [
      { ...base, ...id, seq: seq++, at: x.at, direction: 'out', kind: 'http-request', bytes: 10, headers: {}, body: { jsonrpc: '2.0', ...x.body } },
      ...x.incoming.map((m, k) => ({
        ...base,
        ...id,
        seq: seq++,
        at: x.at + (k + 1) * (x.gap ?? 1),
        direction: 'in',
        kind: 'message',
        bytes: 10,
        body: { jsonrpc: '2.0', ...m },
      })),
    ];
  });
  const opened = openRecording({
    format: 'mcp-loupe-recording',
    version: 3,
    createdAt: '2026-12-02T17:00:00.000Z',
    app: { name: 'mcp-loupe', version: '0.1.0' },
    connection: { target: 'node server.mjs', transport: 'stdio', era, headerNames: [] },
    frames,
    streams: [],
    lints: {},
    apps: {},
    views: [],
  });
  if (!opened.ok) throw new Error(opened.error);
  return opened.recording;
}

const init = (version: string): Ex => ({
  at: 1000,
  body: { id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {} } },
  incoming: [{ id: 1, result: { protocolVersion: version, capabilities: { tools: {}, prompts: {} }, serverInfo: { name: 'trial-server', version: '1.2.3' } } }],
});
const tool = (name: string, extra: Msg = {}) => ({ name, inputSchema: { type: 'object', properties: {} }, ...extra });
const list = (tools: Msg[]): Ex => ({ at: 1010, body: { id: 2, method: 'tools/list' }, incoming: [{ id: 2, result: { tools } }] });
const ELICIT = {
  mode: 'form',
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

function convert(rec: ReturnType<typeof recording>) {
  const notes: string[] = [];
  const text = recordingToScenarioYaml(rec, { notes });
  const parsed = parseScenario(text, 'converted.yaml');
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => `${e.path} ${e.message}`).join('\n'));
  return { scenario: parsed.scenario, notes };
}

describe('recording to scenario: what happened during a call', () => {
  it('2025-11-25: an elicitation/create on the call stream becomes an MRTR round, progress and logs become steps', () => {
    const rec = recording([
      init('2025-11-25'),
      list([tool('ask'), tool('slow')]),
      {
        at: 2000,
        body: { id: 3, method: 'tools/call', params: { name: 'ask', arguments: {}, _meta: { progressToken: 'p3' } } },
        incoming: [
          { id: 0, method: 'elicitation/create', params: ELICIT },
          { id: 3, result: { content: [{ type: 'text', text: 'elicit: Zed' }] } },
        ],
      },
      {
        at: 3000,
        gap: 100,
        body: { id: 4, method: 'tools/call', params: { name: 'slow', arguments: { steps: 2 }, _meta: { progressToken: 'p4' } } },
        incoming: [
          { method: 'notifications/progress', params: { progressToken: 'p4', progress: 1, total: 2, message: 'step 1' } },
          { method: 'notifications/message', params: { level: 'info', logger: 'slow', data: 'log step 1' } },
          { method: 'notifications/progress', params: { progressToken: 'p4', progress: 2, total: 2, message: 'step 2' } },
          { id: 4, result: { content: [{ type: 'text', text: 'done 2' }] } },
        ],
      },
    ]);
    const { scenario } = convert(rec);
    const ask = scenario.tools.find((t) => t.name === 'ask')!;
    expect(ask.mrtr?.rounds).toMatchObject([{ inputRequests: { elicitation: { method: 'elicitation/create', params: ELICIT } } }]);
    expect(ask.result).toMatchObject({ content: [{ type: 'text', text: 'elicit: Zed' }] });
    const slow = scenario.tools.find((t) => t.name === 'slow')!;
    expect(slow.progress?.steps).toEqual([
      { progress: 1, total: 2, message: 'step 1' },
      { progress: 2, total: 2, message: 'step 2' },
    ]);
    // Progress 2 came 300 ms after the request: two steps paced 150 ms apart.
    expect(slow.progress?.intervalMs).toBe(150);
    expect(slow.log).toEqual([{ level: 'info', logger: 'slow', data: 'log step 1' }]);
    expect(slow.result).toMatchObject({ content: [{ text: 'done 2' }] });
  });

  it('2026-07-28: input_required then the retry becomes a round; another session reusing the conversation id adds none', () => {
    const asked = (id: number, at: number, conversationId: string): Ex => ({
      at,
      conversationId,
      body: { id, method: 'tools/call', params: { name: 'ask', arguments: {} } },
      incoming: [
        { id, result: { resultType: 'input_required', inputRequests: { name: { method: 'elicitation/create', params: ELICIT } }, requestState: 's' } },
      ],
    });
    const rec = recording(
      [
        { at: 1000, body: { id: 1, method: 'server/discover' }, incoming: [{ id: 1, result: { supportedVersions: ['2026-07-28'], capabilities: {} } }] },
        list([tool('ask')]),
        asked(3, 2000, 'mrtr-1'),
        {
          at: 2100,
          conversationId: 'mrtr-1',
          body: {
            id: 4,
            method: 'tools/call',
            params: { name: 'ask', arguments: {}, inputResponses: { name: { action: 'accept', content: { name: 'Zed' } } } },
          },
          incoming: [{ id: 4, result: { resultType: 'complete', content: [{ type: 'text', text: 'hello Zed' }] } }],
        },
      ],
      'modern',
    );
    // A second session of the same file (call --record appends) numbers its conversation mrtr-1 again.
    const second = recording([asked(3, 9000, 'mrtr-1')], 'modern');
    rec.frames.push(...second.frames.map((f) => ({ ...f, connectionId: 'c2' })));
    const ask = convert(rec).scenario.tools.find((t) => t.name === 'ask')!;
    expect(ask.mrtr?.rounds).toHaveLength(1);
    expect(ask.mrtr?.rounds[0].inputRequests.name).toEqual({ method: 'elicitation/create', params: ELICIT });
    expect(ask.result).toEqual({ content: [{ type: 'text', text: 'hello Zed' }] });
  });

  it('a prompt that was got but never listed becomes a scenario prompt; a recorded {{...}} stays text', () => {
    const rec = recording([
      init('2025-11-25'),
      {
        at: 2000,
        body: { id: 2, method: 'prompts/get', params: { name: 'greet', arguments: { name: 'Al' } } },
        incoming: [{ id: 2, result: { messages: [{ role: 'user', content: { type: 'text', text: 'Greet Al warmly' } }] } }],
      },
      {
        at: 2100,
        body: { id: 3, method: 'prompts/get', params: { name: 'template', arguments: {} } },
        incoming: [{ id: 3, result: { messages: [{ role: 'user', content: { type: 'text', text: 'Hello {{name}}' } }] } }],
      },
    ]);
    const { scenario, notes } = convert(rec);
    expect(scenario.prompts[0]).toEqual({
      name: 'greet',
      arguments: [{ name: 'name' }],
      messages: [{ role: 'user', content: { type: 'text', text: 'Greet Al warmly' } }],
    });
    // A template the server returns as text is no placeholder of the mock's (which would refuse {{name}} in a prompt).
    expect(scenario.prompts[1].messages[0].content).toEqual({ type: 'text', text: 'Hello {\u200b{name}\u200b}' });
    expect(notes).toEqual([expect.stringMatching(/^prompt template: 1 recorded \{\{\.\.\.\}\} text\(s\) written with a zero-width space/)]);
  });

  it('fits valid-MCP values the scenario format refuses, and says what it changed', () => {
    const rec = recording(
      [
        { at: 1000, body: { id: 1, method: 'server/discover' }, incoming: [{ id: 1, result: { supportedVersions: ['2026-07-28'], capabilities: {} } }] },
        list([tool('count', { outputSchema: { type: 'integer' } }), tool('extra')]),
        {
          at: 2000,
          body: { id: 3, method: 'tools/call', params: { name: 'count', arguments: {} } },
          incoming: [{ id: 3, result: { content: [], structuredContent: 7 } }],
        },
        {
          at: 2100,
          body: { id: 4, method: 'tools/call', params: { name: 'extra', arguments: {} } },
          incoming: [{ id: 4, result: { resultType: 'complete', content: [{ type: 'text', text: 'hi', vendorScore: 3 }], vendorTrace: 'x' } }],
        },
      ],
      'modern',
    );
    const { scenario, notes } = convert(rec);
    const count = scenario.tools.find((t) => t.name === 'count')!;
    expect(count.outputSchema).toBeUndefined();
    expect(count.result).toEqual({ content: [{ type: 'text', text: '7' }] });
    expect(scenario.tools.find((t) => t.name === 'extra')!.result).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(notes).toEqual([
      expect.stringMatching(/^tool count: dropped outputSchema whose root is type "integer"/),
      expect.stringMatching(/^tool count result: dropped structuredContent 7 .*kept its JSON as a text block/),
      expect.stringMatching(/^tool extra result: dropped result key vendorTrace/),
      expect.stringMatching(/^tool extra result content\[0\]: dropped key vendorScore of a text block/),
    ]);
  });
});
