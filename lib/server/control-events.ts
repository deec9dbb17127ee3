import { entrySnapshot, type JournalEntry, type MockEngine } from '../engine';
import { redactHeaders } from './control-auth';
import type { HostEvent, MockHost } from './mock-host';

/**
 * `GET /api/scenarios/<id>/events`: the control room's live feed as server-sent events. It opens
 * with `scenario:snapshot` (journal and tasks as they are), then relays the scenario's engine
 * events (`journal:entry|frame|end|clear`, `task:*`, `scenario:reset`) and, when the scenario is saved, a
 * `scenario:replaced` followed by a fresh snapshot of the new engine. Comments keep proxies from
 * timing the stream out; the subscription ends when the client goes away.
 */

interface EventStreamOptions {
  keepAliveMs?: number;
  /** In a fleet: how often the shared journal is read for other instances' exchanges. Default 1000. */
  fleetPollMs?: number;
  /** A reader this many events behind is cut off (it reconnects and gets a fresh snapshot). */
  maxQueued?: number;
}

/** `no-transform` keeps compression middleware (Next's included) from buffering events. */
const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** A journal entry as the control API publishes it (launch token redacted): a plain copy, bodies included. */
export function publicEntry(entry: JournalEntry): JournalEntry {
  const copy = entrySnapshot(entry);
  copy.requestHeaders = redactHeaders(entry.requestHeaders);
  return copy;
}

/** Journal and tasks of an engine, as the first event of a stream and the JSON of the snapshot route (a fleet's: every instance's). */
export async function snapshotOf(engine: MockEngine): Promise<{ scenarioId: string; entries: JournalEntry[]; tasks: unknown[] }> {
  const entries = (engine.fleetJournal ? await engine.fleetJournal(0) : engine.journal.entries(0)).map(publicEntry);
  return { scenarioId: engine.scenario.id, entries, tasks: await engine.tasks.list() };
}

/** How far behind the newest seen seq a fleet read starts: a row committed late may carry a lower seq. */
const FLEET_REREAD = 200;

/**
 * A fleet's live journal: the other instances' exchanges reach this one only through the store,
 * so it is read every `everyMs` and each entry not yet sent goes out as `journal:end`. The
 * instance's own events are not relayed in a fleet (their seqs are its own, not the fleet's).
 */
function followFleetJournal(read: () => MockEngine | undefined, send: (entry: JournalEntry) => void, everyMs: number) {
  const sent = new Set<number>();
  let newest = 0;
  let busy = false;
  const poll = async () => {
    const fleetJournal = read()?.fleetJournal;
    if (busy || !fleetJournal) return;
    busy = true;
    try {
      for (const entry of await fleetJournal(Math.max(0, newest - FLEET_REREAD))) {
        newest = Math.max(newest, entry.seq);
        if (sent.has(entry.seq)) continue;
        sent.add(entry.seq);
        send(publicEntry(entry));
      }
      for (const seq of sent) if (seq <= newest - FLEET_REREAD) sent.delete(seq);
    } catch {
      /* the store is away for now: the next read catches up */
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void poll(), everyMs);
  return {
    /** After a snapshot: its entries count as sent. */
    seen(entries: readonly JournalEntry[]) {
      for (const e of entries) {
        sent.add(e.seq);
        newest = Math.max(newest, e.seq);
      }
    },
    clear: () => sent.clear(),
    stop: () => clearInterval(timer),
  };
}

const FORWARDED = /^(journal:(entry|frame|end|clear)|task:[a-z-]+|scenario:(reset|replaced|deleted))$/;

/** The SSE response for one scenario of a host. */
export function scenarioEventStream(host: MockHost, id: string, signal: AbortSignal, options: EventStreamOptions = {}): Response {
  const encoder = new TextEncoder();
  const maxQueued = options.maxQueued ?? 1000;
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      // While a snapshot is being read from the store, events wait here so none lands before the snapshot that replaces the view.
      let held: string[] | undefined;
      const write = (text: string) => {
        if (closed) return;
        if (held) return void held.push(text);
        if ((controller.desiredSize ?? 0) < -maxQueued) return void finish();
        controller.enqueue(encoder.encode(text));
      };
      const send = (type: string, data: unknown) => write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
      const snapshot = () => {
        const engine = host.engine(id);
        if (!engine || held) return;
        held = [];
        void snapshotOf(engine)
          .then((snap) => {
            const waiting = held ?? [];
            held = undefined;
            fleet?.seen(snap.entries);
            send('scenario:snapshot', snap);
            for (const text of waiting) write(text);
          })
          .catch(() => finish());
      };
      const fleet = host.engine(id)?.fleetJournal
        ? followFleetJournal(
            () => host.engine(id),
            (entry) => send('journal:end', entry),
            options.fleetPollMs ?? 1000,
          )
        : undefined;
      const off = host.on((event: HostEvent) => {
        if (event.scenarioId !== id || !FORWARDED.test(event.type)) return;
        if (fleet && /^journal:(entry|frame|end)$/.test(event.type)) return;
        if (event.type === 'journal:clear') fleet?.clear();
        const isEntry = event.type === 'journal:entry' || event.type === 'journal:end';
        send(event.type, isEntry ? publicEntry(event.data as JournalEntry) : event.data);
        if (event.type === 'scenario:replaced') snapshot();
      });
      const timer = setInterval(() => write(': keep-alive\n\n'), options.keepAliveMs ?? 15_000);
      const finish = () => {
        if (closed) return;
        closed = true;
        off();
        fleet?.stop();
        clearInterval(timer);
        signal.removeEventListener('abort', finish);
        try {
          controller.close();
        } catch {
          /* already cancelled by the reader */
        }
      };
      stop = finish;
      signal.addEventListener('abort', finish, { once: true });
      write('retry: 1000\n\n');
      snapshot();
      if (signal.aborted) finish();
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, { status: 200, headers: SSE_HEADERS });
}
