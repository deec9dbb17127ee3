/**
 * The program of the page's fetch worker (lib/client/worker-fetch.ts has the page's side): the
 * messages both sides exchange, and `workerMain`, which the page starts from its source text.
 */

/** What the page asks of the worker. */
export type ToWorker =
  | { t: 'fetch'; id: number; url: string; init: WireInit }
  | { t: 'ack'; id: number; consumed: number }
  | { t: 'abort'; id: number }
  | { t: 'cancel'; id: number };

/** What the worker answers: the head once, then chunks while within the window, then the end or a failure. */
export type FromWorker =
  | { t: 'head'; id: number; status: number; statusText: string; headers: [string, string][]; type: ResponseType; url: string; body: boolean }
  | { t: 'chunk'; id: number; value: Uint8Array }
  | { t: 'end'; id: number }
  | { t: 'fail'; id: number; name: string; message: string };

/** The parts of a RequestInit that cross to the worker (a signal cannot: aborts are messages). */
export interface WireInit {
  method?: string;
  headers: [string, string][];
  body?: string;
  cache?: RequestCache;
  redirect?: RequestRedirect;
  credentials?: RequestCredentials;
  mode?: RequestMode;
}

/**
 * The worker's whole program. It runs from its source text, so it may use only the worker's
 * globals (no imports, no helpers of this module).
 */
export function workerMain(): void {
  /**
   * Bytes sent to the page and not yet read by it, past which the worker stops reading: the page's
   * reader sets the pace (and the network's backpressure with it) without a round trip per chunk.
   */
  const WINDOW = 1024 * 1024;
  const PIECE = 256 * 1024;
  type Live = { abort: AbortController; reader?: ReadableStreamDefaultReader<Uint8Array>; posted: number; consumed: number; pumping: boolean };
  const scope = self as unknown as { onmessage: (e: MessageEvent<ToWorker>) => void; postMessage(m: FromWorker, transfer?: Transferable[]): void };
  const live = new Map<number, Live>();
  const fail = (id: number, e: unknown) => {
    if (!live.delete(id)) return;
    const err = e instanceof Error ? e : new Error(String(e));
    scope.postMessage({ t: 'fail', id, name: err.name, message: err.message });
  };
  const pump = async (id: number, own: Live) => {
    if (own.pumping || !own.reader) return;
    own.pumping = true;
    try {
      while (live.get(id) === own && own.posted - own.consumed < WINDOW) {
        const { done, value } = await own.reader.read();
        if (live.get(id) !== own) return;
        if (done) {
          live.delete(id);
          scope.postMessage({ t: 'end', id });
          return;
        }
        // Posted in pieces of at most PIECE bytes, each the page's to read in a task of its own
        // (a 2 MiB read of SSE events is ~40 ms of parsing); each piece owns its buffer, so the
        // transfer moves only its bytes.
        for (let at = 0; at < value.byteLength; at += PIECE) {
          const piece =
            at === 0 && value.byteLength <= PIECE && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength
              ? value
              : value.slice(at, at + PIECE);
          own.posted += piece.byteLength;
          scope.postMessage({ t: 'chunk', id, value: piece }, [piece.buffer]);
        }
      }
    } catch (err) {
      fail(id, err);
    } finally {
      own.pumping = false;
    }
  };
  scope.onmessage = async (e) => {
    const m = e.data;
    const entry = live.get(m.id);
    if (m.t === 'fetch') {
      const own: Live = { abort: new AbortController(), posted: 0, consumed: 0, pumping: false };
      live.set(m.id, own);
      try {
        const res = await fetch(m.url, { ...m.init, signal: own.abort.signal });
        own.reader = res.body?.getReader();
        if (!own.reader) live.delete(m.id);
        const head = { status: res.status, statusText: res.statusText, headers: [...res.headers], type: res.type, url: res.url, body: !!own.reader };
        scope.postMessage({ t: 'head', id: m.id, ...head });
        void pump(m.id, own);
      } catch (err) {
        fail(m.id, err);
      }
    } else if (m.t === 'ack' && entry) {
      entry.consumed = m.consumed;
      void pump(m.id, entry);
    } else if (m.t === 'abort' && entry) {
      live.delete(m.id);
      entry.abort.abort();
    } else if (m.t === 'cancel' && entry) {
      live.delete(m.id);
      void entry.reader?.cancel().catch(() => {});
    }
  };
}
