import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serveStdio } from '../../../lib/adapters/stdio';
import { createMockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { ScenarioSchema } from '../../../lib/scenario/schema';

/**
 * The stdio adapter caps a line at the scenario's maxBodyBytes, as the HTTP front caps a body: a
 * longer line is answered -32600 (id null, the limit named) and dropped, while the lines around
 * it are served.
 */

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

function serve(maxBodyBytes: number) {
  const demo = getBuiltinScenario('demo')!;
  const engine = createMockEngine({ scenario: ScenarioSchema.parse({ ...demo, settings: { ...demo.settings, maxBodyBytes } }) });
  const input = new PassThrough();
  const output = new PassThrough();
  // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers the test reaches into
  const answers: Record<string, any>[] = [];
  let buffered = '';
  output.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const l of lines) answers.push(JSON.parse(l));
  });
  const done = serveStdio(engine, input, output);
  const until = async (n: number) => {
    for (let i = 0; i < 200 && answers.length < n; i++) await new Promise((r) => setTimeout(r, 5));
    return answers;
  };
  return { engine, input, answers, until, done };
}

const echo = (id: number, text: string) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { _meta: META, name: 'echo', arguments: { text } } })}\n`;

describe('serveStdio: the line cap', () => {
  it('answers a line over maxBodyBytes with -32600 (id null, the limit named), drops it, and serves the next line', async () => {
    const s = serve(4096);
    // The long line arrives in pieces, as a pipe delivers it; only its newline ends it.
    const long = echo(1, 'x'.repeat(20_000));
    for (let i = 0; i < long.length; i += 1000) s.input.write(long.slice(i, i + 1000));
    s.input.write(echo(2, 'still here'));
    const [refused, next] = await s.until(2);
    expect(refused).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: expect.stringMatching(/^Request too large: a line of 20\d{3} bytes exceeds the limit of 4096 bytes \(the scenario's settings\.maxBodyBytes\)/),
      },
    });
    expect(next).toMatchObject({ id: 2, result: { content: [{ text: 'still here' }] } });
    expect(s.answers).toHaveLength(2);
    // The dropped line never reached the engine: only the echo that fit is journaled.
    expect(s.engine.journal.entries().map((e) => e.id)).toEqual([2]);
  });

  it('serves a line at the limit, and a last line without its newline when the input ends', async () => {
    const line = echo(1, `fits${'.'.repeat(300)}`);
    const s = serve(Buffer.byteLength(line) - 1);
    s.input.write(line);
    s.input.end(echo(2, 'no newline').trimEnd());
    await s.done;
    expect(await s.until(2)).toMatchObject([
      { id: 1, result: { content: [{ text: expect.stringMatching(/^fits\.+$/) }] } },
      { id: 2, result: { content: [{ text: 'no newline' }] } },
    ]);
  });
});
