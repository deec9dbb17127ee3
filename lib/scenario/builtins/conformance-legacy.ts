import type { ScenarioInput } from '../schema';
import { text } from './conformance-fixtures';
import { objectSchema } from './schema-helpers';

/**
 * The fixtures only the conformance suite's 2025-11-25 scenarios call. Their input requests are
 * written as MRTR rounds: a 2025-11-25 client receives each one as a real `elicitation/create` or
 * `sampling/createMessage` on the call's stream (legacy-bridge.ts). `validate: false` because the
 * suite's answers are checked by the suite, not by the fixture.
 */

const form = (message: string, properties: Record<string, unknown>, required?: string[]) => ({
  method: 'elicitation/create' as const,
  params: { mode: 'form', message, requestedSchema: objectSchema(properties, required ? { required } : {}) },
});

/** SEP-1034: a default for every primitive type. */
const defaults = {
  name: { type: 'string', default: 'John Doe' },
  age: { type: 'integer', default: 30 },
  score: { type: 'number', default: 95.5 },
  status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
  verified: { type: 'boolean', default: true },
};

/** SEP-1330: the five enum shapes. */
const enums = {
  untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
  titledSingle: {
    type: 'string',
    oneOf: [
      { const: 'value1', title: 'First Option' },
      { const: 'value2', title: 'Second Option' },
      { const: 'value3', title: 'Third Option' },
    ],
  },
  legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
  untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
  titledMulti: {
    type: 'array',
    items: {
      anyOf: [
        { const: 'value1', title: 'First Choice' },
        { const: 'value2', title: 'Second Choice' },
        { const: 'value3', title: 'Third Choice' },
      ],
    },
  },
};

/** Tools of the 2025-11-25 server scenarios (tools-call-sampling, tools-call-elicitation, SEP-1034, SEP-1330, server-sse-polling). */
export const conformanceLegacyTools: NonNullable<ScenarioInput['tools']> = [
  {
    name: 'test_sampling',
    description: 'Asks the client to sample an answer to the prompt',
    inputSchema: objectSchema({ prompt: { type: 'string', description: 'The prompt to send to the LLM' } }, { required: ['prompt'] }),
    mrtr: {
      rounds: [
        {
          inputRequests: {
            sample: {
              method: 'sampling/createMessage',
              params: { messages: [{ role: 'user', content: { type: 'text', text: '{{args.prompt}}' } }], maxTokens: 100 },
            },
          },
          validate: false,
        },
      ],
    },
    result: text('LLM response: {{inputs.sample.content.text}}'),
  },
  {
    name: 'test_elicitation',
    description: 'Asks the user for a username and an email address',
    inputSchema: objectSchema({ message: { type: 'string', description: 'The message to show the user' } }, { required: ['message'] }),
    mrtr: {
      rounds: [
        {
          inputRequests: {
            user_info: form(
              '{{args.message}}',
              { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
              ['username', 'email'],
            ),
          },
          validate: false,
        },
      ],
    },
    result: text('User response: action={{inputs.user_info.action}}, username={{inputs.user_info.content.username}}'),
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicitation whose schema has a default for every primitive type (SEP-1034)',
    inputSchema: objectSchema(),
    mrtr: { rounds: [{ inputRequests: { defaults: form('Please review and update the form fields with defaults', defaults) }, validate: false }] },
    result: text('Elicitation completed: action={{inputs.defaults.action}}'),
  },
  {
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicitation with the five enum shapes (SEP-1330)',
    inputSchema: objectSchema(),
    mrtr: { rounds: [{ inputRequests: { enums: form('Please select options from the enum fields', enums) }, validate: false }] },
    result: text('Elicitation completed: action={{inputs.enums.action}}'),
  },
  {
    name: 'test_reconnection',
    description: 'Answers after its stream was closed (fault test_reconnection_drop); a client resumes with GET and Last-Event-ID',
    inputSchema: objectSchema(),
    delayMs: 300,
    result: text('Reconnection test completed'),
  },
];
