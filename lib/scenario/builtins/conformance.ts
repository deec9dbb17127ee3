import type { ScenarioInput } from '../schema';
import { conformanceLegacyTools } from './conformance-legacy';
import { conformanceMrtrTools } from './conformance-mrtr';
import { conformanceTaskTools } from './conformance-tasks';
import { IMG, nameForm, text, WAV } from './conformance-fixtures';
import { objectSchema } from './schema-helpers';

/**
 * Every fixture tool, resource and prompt the official conformance suite calls against a
 * 2026-07-28 server and, through the same scenario, a 2025-11-25 one. Tools are listed in declared order: the suite calls the first listed
 * tool with no arguments, so `test_simple_text` leads.
 */
export const conformanceScenario: ScenarioInput = {
  id: 'conformance',
  name: 'Conformance fixtures',
  description:
    'The tools, resources and prompts the official MCP conformance suite (0.2.0-alpha.12) calls, for 2026-07-28, the tasks extension and 2025-11-25 (initialize, sessions, server-to-client requests).',
  server: { name: 'loupe-conformance', version: '1.0.0' },
  supportedVersions: ['2026-07-28'],
  settings: { toolOrder: 'declared', listCacheScope: 'public', taskTtlMs: 600_000, pollIntervalMs: 500 },
  tools: [
    {
      name: 'test_simple_text',
      description: 'Returns a simple text response',
      inputSchema: objectSchema(),
      result: text('This is a simple text response for testing.'),
    },
    {
      name: 'test_image_content',
      description: 'Returns an image',
      inputSchema: objectSchema(),
      result: { content: [{ type: 'image', data: IMG, mimeType: 'image/png' }] },
    },
    {
      name: 'test_audio_content',
      description: 'Returns audio',
      inputSchema: objectSchema(),
      result: { content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] },
    },
    {
      name: 'test_embedded_resource',
      description: 'Returns an embedded resource',
      inputSchema: objectSchema(),
      result: {
        content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
      },
    },
    {
      name: 'test_multiple_content_types',
      description: 'Returns text, an image and a resource',
      inputSchema: objectSchema(),
      result: {
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: IMG, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
        ],
      },
    },
    {
      name: 'test_error_handling',
      description: 'Returns a tool error result',
      inputSchema: objectSchema(),
      result: { ...text('This tool intentionally returns an error for testing'), isError: true },
    },
    {
      name: 'test_tool_with_progress',
      description: 'Reports progress on the request stream, then answers',
      inputSchema: objectSchema(),
      progress: { intervalMs: 50, steps: [0, 50, 100].map((p) => ({ progress: p, total: 100, message: `Completed step ${p} of 100` })) },
      result: text('{{progressToken}}'),
    },
    {
      name: 'test_tool_with_logging',
      description: 'Logs three messages when a log level is requested',
      inputSchema: objectSchema(),
      log: [
        { level: 'info', data: 'Tool execution started' },
        { level: 'info', data: 'Tool processing data' },
        { level: 'info', data: 'Tool execution completed' },
      ],
      result: text('Logging complete'),
    },
    {
      name: 'test_logging_tool',
      description: 'Logs only when the request asks for a log level',
      inputSchema: objectSchema(),
      log: [{ level: 'info', data: 'Logging evaluated' }],
      result: text('Logging evaluated'),
    },
    {
      name: 'test_missing_capability',
      description: 'Needs the sampling capability',
      inputSchema: objectSchema(),
      requires: { sampling: {} },
      result: text('Success'),
    },
    {
      name: 'test_streaming_elicitation',
      description: 'Streams nothing but notifications before its result',
      inputSchema: objectSchema(),
      result: text('Streaming complete'),
    },
    {
      name: 'test_trigger_tool_change',
      description: 'Announces a tools list change on listen streams',
      inputSchema: objectSchema(),
      emit: ['toolsListChanged'],
      result: text('Mutation triggered'),
    },
    {
      name: 'test_trigger_prompt_change',
      description: 'Announces a prompts list change on listen streams',
      inputSchema: objectSchema(),
      emit: ['promptsListChanged'],
      result: text('Mutation triggered'),
    },
    {
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema if/then/else keyword this conformance tool must advertise
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
      result: text('Schema accepted'),
    },
    {
      name: 'test_header_param',
      description: 'Mirrors its region argument into the Mcp-Param-Region header',
      inputSchema: objectSchema({ region: { type: 'string', description: 'Deployment region', 'x-mcp-header': 'Region' } }, { required: ['region'] }),
      result: text('Region: {{args.region}}'),
    },
    ...conformanceMrtrTools,
    ...conformanceTaskTools,
    ...conformanceLegacyTools,
  ],
  // server-sse-polling (2025-11-25): the stream is cut after its priming event; the answer waits for the client to resume.
  faults: [{ name: 'test_reconnection_drop', match: { method: 'tools/call', tool: 'test_reconnection' }, action: { kind: 'drop', afterEvents: 0 } }],
  resources: [
    {
      uri: 'test://static-text',
      name: 'static-text',
      description: 'A static text resource',
      mimeType: 'text/plain',
      text: 'This is the content of the static text resource.',
    },
    { uri: 'test://static-binary', name: 'static-binary', description: 'A static binary resource', mimeType: 'image/png', blob: IMG },
  ],
  resourceTemplates: [
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'template',
      description: 'A templated resource',
      mimeType: 'application/json',
      text: '{"id":"{{vars.id}}","templateTest":true,"data":"Data for ID: {{vars.id}}"}',
    },
  ],
  prompts: [
    {
      name: 'test_simple_prompt',
      description: 'A simple prompt',
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    },
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
      messages: [{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='{{args.arg1}}', arg2='{{args.arg2}}'" } }],
    },
    {
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt with an embedded resource',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
      messages: [
        {
          role: 'user',
          content: { type: 'resource', resource: { uri: '{{args.resourceUri}}', mimeType: 'text/plain', text: 'Embedded resource content for testing.' } },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    },
    {
      name: 'test_prompt_with_image',
      description: 'A prompt with an image',
      messages: [
        { role: 'user', content: { type: 'image', data: IMG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    },
    {
      name: 'test_input_required_result_prompt',
      description: 'MRTR: prompt that requires elicitation input',
      mrtr: { rounds: [{ inputRequests: { user_context: nameForm('What context should the prompt use?', 'context') } }] },
      messages: [{ role: 'user', content: { type: 'text', text: 'Prompt with context: {{inputs.user_context.content.context}}' } }],
    },
  ],
  completions: [{ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: 'arg1', values: ['testValue1', 'test-value', 'other'] }],
};
