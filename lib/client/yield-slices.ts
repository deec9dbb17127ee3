/**
 * Long loops over what a server sent (100,000 tools) run in slices of a few milliseconds, giving
 * the event loop back between slices, so the page keeps painting and answering input while a
 * huge list is processed: no slice is a long task (Chrome's threshold is 50 ms).
 */

/** Work per slice before giving the event loop back. */
const SLICE_MS = 8;

/**
 * Give the event loop back: a MessageChannel message in a browser (setTimeout(0) is clamped to
 * 4 ms once nested), setImmediate in Node.
 */
export function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(undefined);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Call `work` on consecutive chunks of `items` (`chunk` at a time), yielding whenever a slice
 * has run for `sliceMs`. `now` is injected for tests.
 */
export async function inSlices<T>(
  items: readonly T[],
  work: (chunk: readonly T[]) => void,
  options: { chunk?: number; sliceMs?: number; now?: () => number } = {},
): Promise<void> {
  // Small chunks: the clock is read between them, and a chunk of 500 tools parsed with zod took
  // over 50 ms on a loaded machine.
  const size = Math.max(1, options.chunk ?? 100);
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const now = options.now ?? (() => performance.now());
  let started = now();
  for (let i = 0; i < items.length; i += size) {
    work(items.slice(i, i + size));
    if (now() - started >= sliceMs && i + size < items.length) {
      await yieldToEventLoop();
      started = now();
    }
  }
}
