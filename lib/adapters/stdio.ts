import type { MockEngine } from '../engine';
import { ERROR } from '../protocol';
import { splitLines } from '../server/stdio-lines';
import { parseJson } from '../shared/json';

/**
 * stdio transport: newline-delimited JSON-RPC on stdin/stdout; logs go to stderr only.
 * A malformed line answers -32700 and the server keeps running. A line longer than the
 * scenario's `settings.maxBodyBytes` (the cap on an HTTP body) is dropped unread and answered
 * -32600 with id null: it is counted to its newline, never held whole.
 */
export function serveStdio(engine: MockEngine, input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<void> {
  const send = (message: unknown) => output.write(`${JSON.stringify(message)}\n`);
  const face = engine.connect();
  const max = engine.scenario.settings.maxBodyBytes;
  return new Promise((resolve) =>
    splitLines(
      input,
      max,
      (line) => {
        const text = line.trim();
        if (!text) return;
        const message = parseJson(text);
        if (!message.ok) {
          send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${message.message}` } });
          return;
        }
        void face(message.value, send);
      },
      (bytes) =>
        send({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: ERROR.invalidRequest,
            message: `Request too large: a line of ${bytes} bytes exceeds the limit of ${max} bytes (the scenario's settings.maxBodyBytes); it was dropped unread`,
          },
        }),
      resolve,
    ),
  );
}
