import type { Command } from 'commander';
import { createAuthorizedFetch } from '../client/auth/authorized-fetch';
import { createHeadlessSession } from '../client/headless';
import { describeOutcome, type RequestOutcome } from '../client/results';
import { unanswered, type ServerRequestAnswerer } from '../client/server-requests';
import type { ClientSession } from '../client/session';
import type { InputRequests, InputResponses, Tool } from '../protocol';
import { err, out } from './client-output';
import { parseHttpUrl } from './network';
import { VERSION } from './version';

/**
 * `mcp-loupe conformance-client URL`: the adapter the official conformance runner launches
 * for its client scenarios (`conformance client --command "mcp-loupe conformance-client"
 * --scenario NAME`). It reads MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION and
 * MCP_CONFORMANCE_CONTEXT, takes the server URL as its last argument, and does through the
 * headless client what each scenario expects of a client. Every step is the ordinary client
 * code path; nothing here special-cases a check.
 */

type Flow = (s: ClientSession, context: Record<string, unknown>) => Promise<void>;

/** A failed step ends the run with exit 1 and the reason on stderr. */
class StepFailed extends Error {}

function expectOk<T extends { type: string }>(step: string, o: T): Extract<T, { type: 'complete' }> {
  if (o.type !== 'complete') throw new StepFailed(`${step}: ${describeOutcome(o as unknown as RequestOutcome)}`);
  return o as Extract<T, { type: 'complete' }>;
}

/** Plausible arguments for a tool: every required property, filled by its type. */
function sampleArguments(tool: Tool): Record<string, unknown> {
  const props = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as string[]) : [];
  const args: Record<string, unknown> = {};
  let n = 2;
  for (const key of required) {
    const p = props[key] ?? {};
    const type = p.type;
    if (Array.isArray(p.enum) && p.enum.length) args[key] = p.enum[0];
    else if (type === 'number' || type === 'integer') args[key] = n++;
    else if (type === 'boolean') args[key] = true;
    else if (type === 'object') args[key] = {};
    else if (type === 'array') args[key] = [];
    else args[key] = 'example';
  }
  return args;
}

/** Answer input requests the way a user who says yes would: forms filled from their schema. */
async function agreeableAnswers(requests: InputRequests): Promise<InputResponses> {
  const out: InputResponses = {};
  for (const [key, req] of Object.entries(requests)) {
    if (req.method === 'elicitation/create') {
      const params = req.params as { mode?: string; requestedSchema?: { properties?: Record<string, Record<string, unknown>> } };
      if (params.mode === 'url') {
        out[key] = { action: 'accept' };
        continue;
      }
      const content: Record<string, unknown> = {};
      for (const [name, p] of Object.entries(params.requestedSchema?.properties ?? {})) {
        if (p.default !== undefined) content[name] = p.default;
        else if (p.type === 'boolean') content[name] = true;
        else if (p.type === 'number' || p.type === 'integer') content[name] = typeof p.minimum === 'number' ? p.minimum : 1;
        else if (Array.isArray(p.enum) && p.enum.length) content[name] = p.enum[0];
        else if (p.type === 'array') content[name] = [];
        else content[name] = 'conformance';
      }
      out[key] = { action: 'accept', content };
    } else if (req.method === 'sampling/createMessage') {
      out[key] = { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'mcp-loupe-conformance', stopReason: 'endTurn' };
    } else if (req.method === 'roots/list') {
      out[key] = { roots: [{ uri: 'file:///tmp/mcp-loupe', name: 'scratch' }] };
    }
  }
  return out;
}

async function listed(s: ClientSession): Promise<Tool[]> {
  const l = await s.listTools();
  expectOk('tools/list', l.outcome);
  return l.tools;
}

/** List tools, then call each with sample arguments (tools_call, http-invalid-tool-headers, unknown scenarios). */
const callEveryTool: Flow = async (s) => {
  for (const tool of await listed(s)) expectOk(`tools/call ${tool.name}`, await s.callTool(tool.name, sampleArguments(tool)));
};

/** The same answers for a 2025-11-25 server's own requests on a stream. */
const agreeableServerAnswers: ServerRequestAnswerer = async (method, params) => {
  const answer = (await agreeableAnswers({ q: { method, params: params ?? {} } } as InputRequests)).q;
  return answer ? { result: answer as Record<string, unknown> } : unanswered(method);
};

const FLOWS: Record<string, Flow> = {
  tools_call: callEveryTool,
  // 2025-11-25: the handshake, then the tools (a stream to resume; an elicitation to answer on a stream).
  initialize: callEveryTool,
  'sse-retry': callEveryTool,
  'elicitation-sep1034-client-defaults': callEveryTool,
  'http-invalid-tool-headers': callEveryTool,
  'request-metadata': async (s) => {
    expectOk('server/discover', await s.discover());
    await listed(s);
  },
  'http-standard-headers': async (s) => {
    for (const tool of await listed(s)) expectOk(`tools/call ${tool.name}`, await s.callTool(tool.name, sampleArguments(tool)));
    const resources = expectOk('resources/list', await s.request('resources/list')).result.resources as { uri: string }[] | undefined;
    for (const r of resources ?? []) expectOk(`resources/read ${r.uri}`, await s.request('resources/read', { uri: r.uri }));
    const prompts = expectOk('prompts/list', await s.request('prompts/list')).result.prompts as { name: string }[] | undefined;
    for (const p of prompts ?? []) expectOk(`prompts/get ${p.name}`, await s.request('prompts/get', { name: p.name }));
  },
  'http-custom-headers': async (s, context) => {
    await listed(s);
    const calls = (context.toolCalls ?? []) as { name: string; arguments: Record<string, unknown> }[];
    if (!calls.length) throw new StepFailed('MCP_CONFORMANCE_CONTEXT has no toolCalls');
    for (const c of calls) expectOk(`tools/call ${c.name}`, await s.callTool(c.name, c.arguments));
  },
  'sep-2322-client-request-state': async (s) => {
    await listed(s);
    // Another call made between two rounds must carry none of the first call's MRTR state.
    const echo = await s.callWithInput('test_mrtr_echo_state', {}, async (reqs) => {
      expectOk('tools/call test_mrtr_unrelated', await s.callTool('test_mrtr_unrelated', {}));
      return agreeableAnswers(reqs);
    });
    expectOk('MRTR test_mrtr_echo_state', echo);
    expectOk('MRTR test_mrtr_no_state', await s.callWithInput('test_mrtr_no_state', {}, agreeableAnswers));
    expectOk('tools/call test_mrtr_no_result_type', await s.callWithInput('test_mrtr_no_result_type', {}, agreeableAnswers));
  },
  'json-schema-ref-no-deref': async (s) => {
    await listed(s);
  },
  'json-schema-2020-12-preservation': async (s) => {
    await listed(s);
    const focal = s.tool('json_schema_2020_12_tool');
    if (!focal) throw new StepFailed('json_schema_2020_12_tool is not in tools/list');
    expectOk('tools/call json_schema_echo', await s.callTool('json_schema_echo', { schema: focal.inputSchema }));
  },
};

/**
 * The suite's Client ID Metadata Document URL: its authorization servers expect this exact
 * client id when they advertise CIMD support (it is a constant of the suite, not in the context).
 */
const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

function contextFromEnv(): Record<string, unknown> {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Run one conformance client scenario against `url`; resolves with the exit code. */
async function runConformanceClient(url: string): Promise<number> {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION || undefined;
  const flow = FLOWS[scenario] ?? callEveryTool;
  if (!FLOWS[scenario] && !scenario.startsWith('auth/'))
    err(`mcp-loupe conformance-client: no flow for scenario "${scenario}"; listing and calling every tool`);
  const context = contextFromEnv();
  // Pre-registered credentials come in the context; a client_credentials scenario is a machine client.
  const clientId = str(context.client_id);
  const clientSecret = str(context.client_secret);
  const clientIssuer = str(context.issuer);
  const auth = createAuthorizedFetch({
    grant: scenario.startsWith('auth/client-credentials') ? 'client_credentials' : 'authorization_code',
    ...(clientId ? { clientId } : {}),
    ...(clientSecret ? { clientSecret } : {}),
    ...(clientIssuer ? { clientIssuer } : {}),
    clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
    // The suite's authorization endpoint redirects at once; the redirect is read, not listened for.
    redirectUri: 'http://127.0.0.1/callback',
    clientName: 'mcp-loupe-conformance-client',
    onNotice: (text) => err(text),
  });
  const session = createHeadlessSession({
    url: parseHttpUrl(url, 'URL').toString(),
    era: 'auto',
    protocolVersion: version,
    // Declared per request: this client answers all three kinds of input request.
    capabilities: { roots: {}, sampling: {}, elicitation: { form: {} } },
    clientInfo: { name: 'mcp-loupe-conformance-client', version: VERSION },
    timeoutMs: 20_000,
    maxTimeoutMs: 25_000,
    onWarning: (w) => err(`warning: ${w}`),
    onServerRequest: agreeableServerAnswers,
    auth,
  });
  try {
    await flow(session, context);
    out(`${scenario}: done (${session.era} era, protocol ${session.protocolVersion})`);
    return 0;
  } catch (e) {
    if (!(e instanceof StepFailed)) throw e;
    err(`${scenario}: ${e.message}`);
    return 1;
  } finally {
    session.close();
  }
}

/** Register `mcp-loupe conformance-client URL`, the client side of the official conformance runner. */
export function registerConformanceClient(program: Command): void {
  program
    .command('conformance-client')
    .description('adapter for the official conformance runner: runs the client scenario named by MCP_CONFORMANCE_SCENARIO against URL')
    .argument('<url>', 'the scenario server URL (the runner appends it)')
    .action(async (url: string) => {
      process.exitCode = await runConformanceClient(url);
    });
}
