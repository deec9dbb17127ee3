/**
 * Relaying an upstream event stream to the proxy's client. Its head arrived in time; from then on
 * its lifetime and its size are capped. A failure upstream reaches the client as a dropped
 * stream, never as a clean end, and the client going away aborts the upstream request.
 */

/** What bounds a relayed stream. */
interface RelayLimits {
  /** Longest the stream is relayed, in ms. */
  maxStreamMs: number;
  /** Most bytes relayed; an endless stream is cut there. */
  maxStreamBytes: number;
}

/**
 * The last line of a stream cut at its byte budget: an SSE comment, so the inspector shows it as
 * a frame of the stream. It starts with a newline to end a line the cut split, and no blank line
 * follows, so a half-relayed event is never dispatched.
 */
function cutNotice(bytes: number, max: number): Uint8Array {
  return new TextEncoder().encode(`\n: loupe-proxy: stream cut after ${bytes} bytes: it exceeded the proxy's budget of ${max} bytes per stream\n`);
}

/** A stream relaying `body` within `limits`; `upstream` aborts the upstream fetch. */
export function relayStream(body: ReadableStream<Uint8Array>, upstream: AbortController, limits: RelayLimits): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let lifetime: ReturnType<typeof setTimeout> | undefined;
  let relayed = 0;
  let cut = false;
  const stop = (reason: string) => {
    clearTimeout(lifetime);
    upstream.abort(new Error(reason));
    void reader.cancel().catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      lifetime = setTimeout(() => {
        // Cut it as a drop: the client's reconnect plan takes over from here.
        controller.error(new Error(`stream lifetime of ${limits.maxStreamMs} ms exceeded`));
        stop('stream lifetime exceeded');
      }, limits.maxStreamMs);
    },
    async pull(controller) {
      // error() discards what is still queued, so the notice is read before the stream errors.
      if (cut) return controller.error(new Error(`stream budget of ${limits.maxStreamBytes} bytes exceeded`));
      try {
        const { done, value } = await reader.read();
        if (done) {
          clearTimeout(lifetime);
          controller.close();
          return;
        }
        const room = limits.maxStreamBytes - relayed;
        if (value.byteLength <= room) {
          relayed += value.byteLength;
          controller.enqueue(value);
          return;
        }
        // Over budget: relay up to it, say why, and end the stream as dropped (not as complete).
        if (room > 0) controller.enqueue(value.subarray(0, room));
        relayed += Math.max(0, room);
        controller.enqueue(cutNotice(relayed, limits.maxStreamBytes));
        cut = true;
        stop('stream budget exceeded');
      } catch (e) {
        // Relay the failure: the client must see a dropped stream, not a clean end.
        clearTimeout(lifetime);
        try {
          controller.error(e);
        } catch {
          /* already errored by the lifetime cap */
        }
      }
    },
    cancel() {
      stop('the client closed the stream');
    },
  });
}
