import { createParser } from 'eventsource-parser';
import { MAX_FRAMES_PER_PUSH, TapFaultsEventSchema, TapRegisteredSchema, type TapFrame } from '../recording/tap-api';
import { TapFaultEntrySchema, type TapFaultEntry } from '../scenario/tap-faults';
import { findLoupe, type LoupeAdvert } from './tap-discovery';
import type { TapFaults } from './tap-faults';
import type { TapSession } from './tap-recorder';

/**
 * The tap's live feed to a running Loupe: found through the data directory (tap-discovery.ts),
 * registered as a live tap, sent the session so far and then every frame as it is observed, in
 * batches, one push in flight at a time. The fault switches flipped in the UI come back on the
 * tap's control stream. The relay never waits for any of this: with no Loupe, or a Loupe that
 * goes away, the tap carries on (and keeps recording), and looks again every `retryMs`, so a
 * Loupe started later picks the session up.
 */

interface LiveFeedOptions {
  dataDir: string;
  session: TapSession;
  target: string;
  transport: 'http' | 'stdio';
  faults: TapFaults;
  seed?: number | string;
  retryMs?: number;
  /** Diagnostics (never the token). */
  log?: (line: string) => void;
  /** The tap's page once it is live (`<loupe>/tap/<id>`). */
  onLive?: (page: string) => void;
}

interface LiveFeed {
  /** Send what is left, say the tap ended, and stop (bounded wait). */
  stop(): Promise<void>;
}

const sameEntries = (a: readonly TapFaultEntry[], b: readonly TapFaultEntry[]) => JSON.stringify(a) === JSON.stringify(b);

/** Start feeding a tap session to the Loupe in `dataDir` (now or when it appears). */
export function startLiveFeed(options: LiveFeedOptions): LiveFeed {
  const retryMs = options.retryMs ?? 2000;
  let loupe: LoupeAdvert | undefined;
  let tapId: string | undefined;
  let sentSeq = -1;
  let queue: TapFrame[] = [];
  let pushing = false;
  let stopped = false;
  let control: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${loupe!.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${loupe!.token}`, 'content-type': 'application/json' },
      signal: init.signal ?? AbortSignal.timeout(10_000),
    });

  function lost(why: string): void {
    if (loupe) options.log?.(`lost the Loupe at ${loupe.url}: ${why}`);
    loupe = undefined;
    control?.abort();
    control = undefined;
    schedule();
  }

  function schedule(): void {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void attach();
    }, retryMs);
    timer.unref();
  }

  async function attach(): Promise<void> {
    if (stopped || loupe) return;
    const found = findLoupe(options.dataDir);
    if (!found) return schedule();
    loupe = found;
    try {
      const res = await call('/api/taps', {
        method: 'POST',
        body: JSON.stringify({ target: options.target, transport: options.transport, faults: options.faults.entries(), seed: options.seed }),
      });
      const body = TapRegisteredSchema.safeParse(await res.json().catch(() => undefined));
      if (!res.ok || !body.success) return lost(`registration answered HTTP ${res.status}`);
      tapId = body.data.id;
    } catch (e) {
      return lost((e as Error).message);
    }
    options.log?.(`live in Loupe: ${loupe.url}/tap/${tapId}`);
    options.onLive?.(`${loupe.url}/tap/${tapId}`);
    sentSeq = -1;
    queue = [...options.session.frames()];
    void follow(tapId);
    void push();
  }

  /** Read the tap's control stream: the fault switches the UI flips. */
  async function follow(id: string): Promise<void> {
    control = new AbortController();
    const mine = control;
    try {
      const res = await call(`/api/taps/${encodeURIComponent(id)}/events?control=1`, { signal: mine.signal });
      if (!res.ok || !res.body) return lost(`the control stream answered HTTP ${res.status}`);
      const parser = createParser({
        onEvent: (event) => {
          if (event.event !== 'tap:faults' && event.event !== 'tap:snapshot') return;
          let data: unknown;
          try {
            data = JSON.parse(event.data);
          } catch {
            return;
          }
          const parsed = TapFaultsEventSchema.safeParse(data);
          if (!parsed.success) return;
          const entries = parsed.data.faults.flatMap((f) => {
            const e = TapFaultEntrySchema.safeParse(f);
            return e.success ? [e.data] : [];
          });
          if (sameEntries(entries, options.faults.entries())) return;
          options.faults.set(entries);
          options.log?.(
            `faults switched on: ${
              entries
                .filter((e) => e.enabled)
                .map((e) => e.id)
                .join(', ') || 'none'
            }`,
          );
        },
      });
      const decoder = new TextDecoder();
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
      if (!mine.signal.aborted) lost('the control stream ended');
    } catch (e) {
      if (!mine.signal.aborted) lost((e as Error).message);
    }
  }

  async function push(): Promise<void> {
    if (pushing || !loupe || !tapId) return;
    pushing = true;
    try {
      while (queue.length && loupe && tapId) {
        const taken = Math.min(queue.length, MAX_FRAMES_PER_PUSH);
        const batch = queue.slice(0, taken).filter((f) => f.seq > sentSeq);
        const res = await call(`/api/taps/${encodeURIComponent(tapId)}/frames`, { method: 'POST', body: JSON.stringify({ frames: batch }) });
        await res.body?.cancel();
        if (!res.ok) {
          // 404: this Loupe restarted and forgot the tap; register again.
          lost(`frames answered HTTP ${res.status}`);
          break;
        }
        // Frames observed while the push was in flight were appended after the ones it took.
        queue = queue.slice(taken);
        sentSeq = Math.max(sentSeq, ...batch.map((f) => f.seq));
      }
    } catch (e) {
      lost((e as Error).message);
    } finally {
      pushing = false;
    }
  }

  options.session.events.on('frame', (frame: TapFrame) => {
    if (!loupe || !tapId) return;
    queue.push(frame);
    if (!pushing) setImmediate(() => void push());
  });
  void attach();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (loupe && tapId) {
        await push();
        if (loupe && tapId)
          await call(`/api/taps/${encodeURIComponent(tapId)}/end`, { method: 'POST', signal: AbortSignal.timeout(2000) }).catch(() => undefined);
      }
      control?.abort();
    },
  };
}
