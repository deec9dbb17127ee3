/**
 * Injected time for the client: poll cadence, backoff, TTL backstops and request deadlines
 * all go through a Clock so tests drive them with a fake one.
 */
import { createSystemClock as createSharedSystemClock, type Clock } from '../shared/clock';

export { sleep, type Clock } from '../shared/clock';

/**
 * The client's real clock. Timers stay referenced: a script awaiting a poll or a backoff must
 * not see Node exit underneath it (the engine's timers must never hold a server).
 */
export function createSystemClock(): Clock {
  return createSharedSystemClock();
}
