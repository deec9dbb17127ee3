/**
 * Relaying an upstream event stream to the proxy's client. Its head arrived in time; from then on
 * only its lifetime is capped. A failure upstream reaches the client as a dropped stream, never as
 * a clean end, and the client going away aborts the upstream request.
 */

/** A stream relaying `body`, cut after `maxStreamMs`; `upstream` aborts the upstream fetch. */
export function relayStream(body: ReadableStream<Uint8Array>, upstream: AbortController, maxStreamMs: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let lifetime: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      lifetime = setTimeout(() => {
        // Cut it as a drop: the client's reconnect plan takes over from here.
        controller.error(new Error(`stream lifetime of ${maxStreamMs} ms exceeded`));
        upstream.abort(new Error('stream lifetime exceeded'));
        void reader.cancel().catch(() => {});
      }, maxStreamMs);
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          clearTimeout(lifetime);
          controller.close();
        } else controller.enqueue(value);
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
      clearTimeout(lifetime);
      upstream.abort(new Error('the client closed the stream'));
      void reader.cancel().catch(() => {});
    },
  });
}
