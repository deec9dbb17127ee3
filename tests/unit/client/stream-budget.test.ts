import { describe, expect, it } from 'vitest';
import { utf8Bytes, type Frame } from '../../../lib/client/frames';
import { createHeadlessSession } from '../../../lib/client/headless';
import { createHttpTransport } from '../../../lib/client/http-transport';
import { createTrackingTransport } from '../../../lib/client/tracking';
import type { TransportEvent } from '../../../lib/client/transport';

/** An SSE answer that never ends is cut at the page's byte budget, closed, and the cut is said on the timeline. */

/** A fetch answering with an endless SSE stream of ~1 KiB events; counts what it produced and whether it was cancelled. */
function endlessFetch() {
  const state = { bytes: 0, cancelled: false };
  const encoder = new TextEncoder();
  let n = 0;
  const fetch = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          const chunk = encoder.encode(
            `id: ${++n}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${n},"message":"${'x'.repeat(1000)}"}}\n\n`,
          );
          state.bytes += chunk.byteLength;
          controller.enqueue(chunk);
        },
        cancel() {
          state.cancelled = true;
        },
      }),
      { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
    );
  return { fetch, state };
}

const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'endless' } };

describe('stream byte budget', () => {
  it('cuts an endless stream once it carried more than the budget, cancels the body and says why', async () => {
    const { fetch, state } = endlessFetch();
    const t = createHttpTransport({ url: 'http://mcp.test/mcp', fetch, streamByteBudget: 64 * 1024 });
    const events: TransportEvent[] = [];
    for await (const ev of t.send(request)) events.push(ev);
    const messages = events.filter((e) => e.type === 'message');
    expect(messages.length).toBeGreaterThan(50);
    expect(messages.length).toBeLessThan(64);
    expect(state.cancelled).toBe(true);
    expect(state.bytes).toBeLessThan(80 * 1024);
    expect(events.at(-2)).toMatchObject({ type: 'error', cause: 'protocol', message: expect.stringContaining('stream cut after 0.1 MiB') });
    expect(events.at(-1)).toMatchObject({ type: 'close', cause: 'aborted', detail: expect.stringContaining('over the budget of 0.1 MiB per stream') });
  });

  it('puts the cut on the timeline: an error frame and the stream closed by the client with the reason', async () => {
    const { fetch } = endlessFetch();
    const frames: Frame[] = [];
    const t = createTrackingTransport(createHttpTransport({ url: 'http://mcp.test/mcp', fetch, streamByteBudget: 32 * 1024 }), { sink: (f) => frames.push(f) });
    for await (const _ of t.send(request)) {
      /* drain */
    }
    const error = frames.find((f) => f.kind === 'error');
    const close = frames.find((f) => f.kind === 'sse-close');
    expect(error?.errorText).toMatch(/^SSE stream cut after 0\.0 MiB: over the budget of 0\.0 MiB per stream/);
    expect(close).toMatchObject({ closeReason: 'client-closed', errorText: expect.stringContaining("the page's limit; Loupe closed the stream") });
  });

  it('leaves a stream under the budget alone', async () => {
    const body = 'data: {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}\n\n';
    const t = createHttpTransport({
      url: 'http://mcp.test/mcp',
      fetch: async () => new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
      streamByteBudget: body.length,
    });
    const events: TransportEvent[] = [];
    for await (const ev of t.send(request)) events.push(ev);
    expect(events.map((e) => e.type)).toEqual(['sent', 'response', 'message', 'close']);
  });

  it('cuts a JSON answer over the budget while reading it, cancels the body and fails the request with the reason', async () => {
    // A JSON body that would go on for 64 MiB; it is produced only as far as it is read.
    const state = { produced: 0, cancelled: false };
    const chunk = new TextEncoder().encode('A'.repeat(64 * 1024));
    const fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"'));
          },
          pull(c) {
            if (state.produced >= 64 * 1024 * 1024) return c.close();
            state.produced += chunk.byteLength;
            c.enqueue(chunk);
          },
          cancel() {
            state.cancelled = true;
          },
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      );
    const frames: Frame[] = [];
    const t = createTrackingTransport(createHttpTransport({ url: 'http://mcp.test/mcp', fetch, streamByteBudget: 1024 * 1024 }), {
      sink: (f) => frames.push(f),
    });
    const events: TransportEvent[] = [];
    for await (const ev of t.send(request)) events.push(ev);
    expect(events.map((e) => e.type)).toEqual(['sent', 'response', 'error', 'close']);
    expect(events[2]).toMatchObject({
      type: 'error',
      cause: 'protocol',
      message: expect.stringMatching(/^JSON answer cut after 1\.\d MiB: over the budget of 1\.0 MiB per answer/),
    });
    expect(state.cancelled).toBe(true);
    expect(state.produced).toBeLessThan(2 * 1024 * 1024);
    expect(frames.find((f) => f.kind === 'error')?.errorText).toMatch(
      /^JSON answer cut after 1\.\d MiB: over the budget of 1\.0 MiB per answer \(the page's limit; Loupe closed the connection\)$/,
    );
  });

  it('reads a JSON answer under the budget as before, whatever its chunking and characters', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: 'é€😀 ‮' }] } });
    const bytes = new TextEncoder().encode(body);
    const fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            // One byte per chunk: characters split across chunks must still decode.
            for (const b of bytes) c.enqueue(Uint8Array.of(b));
            c.close();
          },
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      );
    const t = createHttpTransport({ url: 'http://mcp.test/mcp', fetch, streamByteBudget: bytes.byteLength });
    const events: TransportEvent[] = [];
    for await (const ev of t.send(request)) events.push(ev);
    expect(events[2]).toMatchObject({ type: 'message', raw: body });
    expect(events.at(-1)).toEqual({ type: 'close', cause: 'end' });
  });

  it("the CLI's headless session sets no budget: a 17 MiB stream of progress (over the page's 16 MiB) before the result is read to the result", async () => {
    const progress = `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,"message":"${'x'.repeat(1 << 20)}"}}\n\n`;
    const fetch = async (_url: string, init: RequestInit) => {
      const id = (JSON.parse(String(init.body)) as { id?: number }).id;
      const encoder = new TextEncoder();
      let sent = 0;
      return new Response(
        new ReadableStream<Uint8Array>({
          pull(c) {
            if (sent++ < 17) return c.enqueue(encoder.encode(progress));
            c.enqueue(encoder.encode(`data: {"jsonrpc":"2.0","id":${id},"result":{"resultType":"complete","content":[{"type":"text","text":"done"}]}}\n\n`));
            c.close();
          },
        }),
        { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
      );
    };
    const session = createHeadlessSession({ url: 'http://mcp.test/mcp', era: 'modern', fetch });
    const outcome = await session.callTool('long', {});
    expect(outcome).toMatchObject({ type: 'complete', result: { content: [{ type: 'text', text: 'done' }] } });
  });

  it('measures frames in UTF-8 bytes as the encoder would, surrogate pairs and lone surrogates included', () => {
    for (const text of ['', 'ascii', 'é', '€', '😀', 'a\uD800b', '\uDC00', 'x\uD83D', '‮‮', 'mixed é€😀 text'.repeat(100)])
      expect(utf8Bytes(text), JSON.stringify(text)).toBe(new TextEncoder().encode(text).byteLength);
  });
});
