/** A hidden tab runs no animation frames: live frames then wait at most this long. */
const HIDDEN_FLUSH_MS = 100;

/**
 * Run `flush` before the next paint: however many frames arrive meanwhile (a server listing
 * 100,000 tools, an app flooding the bridge), the timeline re-renders once per animation frame.
 * A timer stands in when no frame comes (hidden tab); without a DOM (Node), the next microtask.
 */
export function perAnimationFrame(flush: () => void): void {
  if (typeof requestAnimationFrame !== 'function') {
    queueMicrotask(flush);
    return;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    flush();
  };
  const frame = requestAnimationFrame(once);
  const timer = setTimeout(once, HIDDEN_FLUSH_MS);
}
