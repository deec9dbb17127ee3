import type { ScenarioInput } from '../schema';

/** Placeholder replaced below. */
export const demoScenario: ScenarioInput = {
  id: 'demo',
  server: { name: 'loupe-demo', version: '0.1.0' },
  tools: [{ name: 'echo', description: 'Echo', inputSchema: { type: 'object' }, result: { content: [{ type: 'text', text: 'hi' }] } }],
};
