import type { ScenarioInput } from '../schema';
import { objectSchema } from './schema-helpers';

/**
 * `slow-approvals`: a purchase request that waits on people. The task keeps working for half a
 * minute with changing status messages, asks the requester to confirm a cost center, then waits
 * for a finance sign-off that only an operator can give (a `manual` step). `pollIntervalMs` is
 * 2000, so a client that polls faster is visible in the journal and the report card.
 */
export const slowApprovalsScenario: ScenarioInput = {
  id: 'slow-approvals',
  name: 'Slow approvals',
  description:
    'A purchase request that waits on people: 30 s of "waiting for your manager" with a new status message every 6 s, then input_required for the cost center, ' +
    'then a finance sign-off that waits until advanced from the control room or `mcp-loupe tasks advance`. pollIntervalMs is 2000: poll no faster, show the status messages, and keep waiting.',
  server: {
    name: 'loupe-purchasing',
    version: '1.0.0',
    title: 'Purchasing',
    instructions:
      'request_purchase runs as a task (declare io.modelcontextprotocol/tasks). Approvals take a long time: poll tasks/get at the pollIntervalMs the task gives.',
  },
  settings: { pollIntervalMs: 2_000, taskTtlMs: 86_400_000, maxTaskRunMs: 86_400_000 },
  tools: [
    {
      name: 'request_purchase',
      title: 'Request a purchase',
      description: 'Files a purchase request and follows it through manager approval, cost-center confirmation and finance sign-off. Runs only as a task.',
      inputSchema: objectSchema(
        {
          item: { type: 'string', description: 'What to buy' },
          amountCents: { type: 'integer', minimum: 1, description: 'Price in cents' },
        },
        { required: ['item', 'amountCents'] },
      ),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      task: {
        mode: 'required',
        pollIntervalMs: 2_000,
        steps: [
          { status: 'working', statusMessage: 'Filing the purchase request for {{args.item}}', delayMs: 1_000 },
          {
            status: 'working',
            delayMs: 30_000,
            progress: [
              'Waiting for your manager to approve',
              'Your manager was notified by email',
              'Sent a reminder to your manager',
              'Escalated to the finance lead',
              'The finance lead is reviewing the request',
            ],
          },
          {
            status: 'input_required',
            statusMessage: 'Approved by your manager: confirm the cost center',
            inputRequests: {
              cost_center: {
                method: 'elicitation/create',
                params: {
                  mode: 'form',
                  message: 'Which cost center pays for {{args.item}}?',
                  requestedSchema: objectSchema(
                    { costCenter: { type: 'string', title: 'Cost center', enum: ['engineering', 'marketing', 'operations'] } },
                    { required: ['costCenter'] },
                  ),
                },
              },
            },
            onDecline: 'complete',
            declineResult: {
              content: [{ type: 'text', text: 'Purchase request withdrawn: no cost center was given.' }],
              structuredContent: { approved: false },
            },
            onCancel: 'wait',
          },
          { status: 'working', statusMessage: 'Waiting for finance sign-off', manual: true },
          {
            result: {
              content: [{ type: 'text', text: 'Purchase of {{args.item}} approved and charged to {{inputs.cost_center.content.costCenter}}.' }],
              structuredContent: { approved: true, item: '{{args.item}}', costCenter: '{{inputs.cost_center.content.costCenter}}' },
            },
          },
        ],
      },
    },
  ],
};
