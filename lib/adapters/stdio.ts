import { createInterface } from 'node:readline';
import type { MockEngine } from '../engine';
import { parseJson } from '../shared/json';

/**
 * stdio transport: newline-delimited JSON-RPC on stdin/stdout; logs go to stderr only.
 * A malformed line answers -32700 and the server keeps running.
 */
export function serveStdio(engine: MockEngine, input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<void> {
  const send = (message: unknown) => output.write(`${JSON.stringify(message)}\n`);
  const rl = createInterface({ input, crlfDelay: Infinity });
  const face = engine.connect();
  rl.on('line', (line) => {
    const text = line.trim();
    if (!text) return;
    const message = parseJson(text);
    if (!message.ok) {
      send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${message.message}` } });
      return;
    }
    void face(message.value, send);
  });
  return new Promise((resolve) => rl.on('close', () => resolve()));
}
