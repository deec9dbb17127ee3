import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
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
});
