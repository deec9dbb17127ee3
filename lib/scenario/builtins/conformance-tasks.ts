import type { ScenarioInput } from '../schema';
import { nameForm, text } from './conformance-fixtures';
import { objectSchema } from './schema-helpers';

/**
 * The conformance suite's fixtures for the tasks extension: tools that run as tasks when the
 * client declares it (or only as tasks), fail as tasks, and ask for input inside a task.
 */
export const conformanceTaskTools: NonNullable<ScenarioInput['tools']> = [
  {
    name: 'greet',
    description: 'Greets by name (never a task)',
    inputSchema: objectSchema({ name: { type: 'string' } }, { required: ['name'] }),
    result: text('Hello, {{args.name}}!'),
  },
  {
    name: 'slow_compute',
    description: 'Computes for a number of seconds; runs as a task when the client declares the extension',
    inputSchema: objectSchema({ seconds: { type: 'integer' }, label: { type: 'string' } }),
    task: {
      steps: [
        { statusMessage: 'Computing {{args.label}}', delayMs: '{{args.seconds}} * 1000' },
        { result: text('Computed {{args.label}} in {{args.seconds}}s') },
      ],
    },
  },
  {
    name: 'failing_job',
    description: 'Runs only as a task and ends with a tool error',
    inputSchema: objectSchema(),
    task: { mode: 'required', steps: [{ statusMessage: 'Working', delayMs: 1000 }, { toolError: text('The job failed: simulated tool error') }] },
  },
  {
    name: 'protocol_error_job',
    description: 'Runs as a task and fails with a JSON-RPC error',
    inputSchema: objectSchema(),
    task: { steps: [{ statusMessage: 'Working', delayMs: 300 }, { error: { code: -32603, message: 'Simulated internal failure' } }] },
  },
  {
    name: 'confirm_delete',
    description: 'Asks for confirmation inside a task before deleting a file',
    inputSchema: objectSchema({ filename: { type: 'string' } }),
    task: {
      steps: [
        {
          statusMessage: 'Waiting for confirmation',
          inputRequests: {
            confirm: {
              method: 'elicitation/create',
              params: { mode: 'form', message: 'Delete {{args.filename}}?', requestedSchema: objectSchema({ confirm: { type: 'boolean' } }) },
            },
          },
        },
        { result: text('Deleted {{args.filename}}') },
      ],
    },
  },
  {
    name: 'multi_input',
    description: 'A task that asks two questions at once',
    inputSchema: objectSchema(),
    task: {
      steps: [
        {
          statusMessage: 'Waiting for two answers',
          inputRequests: {
            first: {
              method: 'elicitation/create',
              params: { mode: 'form', message: 'First answer', requestedSchema: objectSchema({ name: { type: 'string' }, confirm: { type: 'boolean' } }) },
            },
            second: {
              method: 'elicitation/create',
              params: { mode: 'form', message: 'Second answer', requestedSchema: objectSchema({ name: { type: 'string' }, confirm: { type: 'boolean' } }) },
            },
          },
        },
        { result: text('Got {{inputs.first.content.name}} and {{inputs.second.content.name}}') },
      ],
    },
  },
  {
    name: 'test_tool_with_task',
    description: 'Asks for a name with MRTR, then runs as a task',
    inputSchema: objectSchema(),
    mrtr: { rounds: [{ inputRequests: { user_name: nameForm('What is your name?') } }] },
    task: { mode: 'required', steps: [{ statusMessage: 'Preparing greeting', delayMs: 200 }, { result: text('Hello, {{inputs.user_name.content.name}}!') }] },
  },
];
