import type { ScenarioInput } from '../schema';
import { nameForm, roots, sampling, text } from './conformance-fixtures';
import { objectSchema } from './schema-helpers';

/**
 * The conformance suite's fixtures for multi-round tool results (MRTR): tools that answer
 * input_required with elicitation, sampling and roots requests, over one or two rounds, and
 * check the requestState they get back.
 */
export const conformanceMrtrTools: NonNullable<ScenarioInput['tools']> = [
  {
    name: 'test_input_required_result_elicitation',
    description: 'MRTR: asks for the user name',
    inputSchema: objectSchema(),
    mrtr: { rounds: [{ inputRequests: { user_name: nameForm('What is your name?') } }] },
    result: text('Hello, {{inputs.user_name.content.name}}!'),
  },
  {
    name: 'test_input_required_result_sampling',
    description: 'MRTR: asks for a sampled answer',
    inputSchema: objectSchema(),
    mrtr: { rounds: [{ inputRequests: { sample_request: sampling('What is the capital of France?') } }] },
    result: text('Sampled: {{inputs.sample_request.content.text}}'),
  },
  {
    name: 'test_input_required_result_list_roots',
    description: 'MRTR: asks for the client roots',
    inputSchema: objectSchema(),
    mrtr: { rounds: [{ inputRequests: { roots_request: roots } }] },
    result: text('Found root(s): {{inputs.roots_request.roots}}'),
  },
  {
    name: 'test_input_required_result_request_state',
    description: 'MRTR: confirmation carried with requestState',
    inputSchema: objectSchema(),
    mrtr: {
      rounds: [
        {
          inputRequests: {
            confirm: {
              method: 'elicitation/create',
              params: { mode: 'form', message: 'Please confirm', requestedSchema: objectSchema({ ok: { type: 'boolean' } }, { required: ['ok'] }) },
            },
          },
        },
      ],
    },
    result: text('state-ok: confirmed={{inputs.confirm.content.ok}}'),
  },
  {
    name: 'test_input_required_result_multiple_inputs',
    description: 'MRTR: elicitation, sampling and roots in one round',
    inputSchema: objectSchema(),
    mrtr: { rounds: [{ inputRequests: { user_name: nameForm('What is your name?'), greeting: sampling('Generate a greeting', 50), client_roots: roots } }] },
    result: text('Hello {{inputs.user_name.content.name}}: {{inputs.greeting.content.text}}'),
  },
  {
    name: 'test_input_required_result_multi_round',
    description: 'MRTR: two rounds',
    inputSchema: objectSchema(),
    mrtr: {
      rounds: [
        { inputRequests: { step1: nameForm('Step 1: What is your name?') } },
        { inputRequests: { step2: nameForm('Step 2: What is your favorite color?', 'color') } },
      ],
    },
    result: text('{{inputs.step1.content.name}} likes {{inputs.step2.content.color}}'),
  },
  {
    name: 'test_input_required_result_tampered_state',
    description: 'MRTR: rejects a tampered requestState',
    inputSchema: objectSchema(),
    mrtr: {
      rounds: [
        {
          inputRequests: {
            confirm: {
              method: 'elicitation/create',
              params: { mode: 'form', message: 'Please confirm', requestedSchema: objectSchema({ ok: { type: 'boolean' } }, { required: ['ok'] }) },
            },
          },
        },
      ],
    },
    result: text('state-ok'),
  },
  {
    name: 'test_input_required_result_capabilities',
    description: 'MRTR: asks only for what the client declared',
    inputSchema: objectSchema(),
    mrtr: { rounds: [{ inputRequests: { user_input: nameForm('What is your name?'), sample_input: sampling('Sample request', 50) } }] },
    result: text('Answered'),
  },
];
