import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { listen } from '../../../lib/adapters/node-http';

/**
 * The official TypeScript SDK v2 serving the same tool statelessly on 2026-07-28, behind the
 * same node:http adapter Loupe's CLI uses, so the comparison isolates the protocol engines.
 */
const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'sdk-bench', version: '1.0.0' });
    server.registerTool('test_simple_text', { description: 'Returns a simple text response', inputSchema: z.object({}) }, async () => ({
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    }));
    return server;
  },
  { legacy: 'reject' },
);
const s = await listen((req) => handler.fetch(req), '127.0.0.1', 0);
console.log(`READY http://127.0.0.1:${s.port}/mcp`);
