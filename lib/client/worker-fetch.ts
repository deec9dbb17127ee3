/**
 * fetch on a worker thread, for the page's MCP traffic. Chromium reads a response body from its
 * network pipe on the thread that called fetch, in tasks of up to ~100 ms when a fast server
 * sends megabytes (a 50 MB result read straight from a server froze the inspector's main thread
 * for 250-500 ms before the page cut it at its budget). A dedicated worker does the fetch and
 * the pipe reading; the page gets a real `Response` whose body is fed by the worker's chunks,
 * transferred (never copied), at most 1 MiB ahead of what the page has read: the page's reader
 * still sets the pace, counts the bytes and cuts at the budget, and cancelling it cancels the
 * worker's body.
 *
 * The worker is made from the source of `workerMain` (fetch-worker-program.ts) as a Blob URL: it
 * uses nothing but the worker's globals, so no bundler entry is needed. Where there is no Worker (Node, the CLI,
 * unit tests), or a request the worker cannot carry (a body neither a string nor a form), plain fetch.
 */

import { type FromWorker, type ToWorker, type WireInit, workerMain } from './fetch-worker-program';
import { yieldToEventLoop } from './yield-slices';

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** One request in flight, as the page side follows it. */
interface Pending {
  onHead(m: Extract<FromWorker, { t: 'head' }>): void;
  onChunk(value: Uint8Array): void;
  onEnd(): void;
  onFail(error: Error): void;
}

/** Statuses whose Response must have a null body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The error fetch would have thrown: a TypeError for the network (what the auto transport reads as "no CORS"), else as named. */
function errorFrom(name: string, message: string): Error {
  if (name === 'AbortError') return new DOMException(message, 'AbortError');
  return name === 'TypeError' ? new TypeError(message) : Object.assign(new Error(message), { name });
}

/** The worker's answer head as a Response, its body fed by pulls; an opaque redirect keeps its type and status 0. */
function responseOf(m: Extract<FromWorker, { t: 'head' }>, body: ReadableStream<Uint8Array> | null): Response {
  const status = m.status >= 200 && m.status <= 599 ? m.status : 200;
  const res = new Response(NULL_BODY.has(m.status) || !m.body ? null : body, { status, statusText: m.statusText, headers: m.headers });
  if (status !== m.status) Object.defineProperty(res, 'status', { value: m.status });
  if (m.type !== 'default') Object.defineProperty(res, 'type', { value: m.type });
  if (m.url) Object.defineProperty(res, 'url', { value: m.url });
  return res;
}

/**
 * The init's parts as the worker takes them, or undefined when it cannot carry them (a body that
 * is neither a string nor a form). A form (an OAuth token request) goes as its text, with the
 * content type fetch would have given it.
 */
function wireInit(init: RequestInit): WireInit | undefined {
  const form = init.body instanceof URLSearchParams ? init.body : undefined;
  if (init.body !== undefined && init.body !== null && typeof init.body !== 'string' && !form) return undefined;
  const headers = new Headers(init.headers);
  if (form && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
  const body = form ? form.toString() : init.body;
  return {
    headers: [...headers],
    ...(init.method ? { method: init.method } : {}),
    ...(typeof body === 'string' ? { body } : {}),
    ...(init.cache ? { cache: init.cache } : {}),
    ...(init.redirect ? { redirect: init.redirect } : {}),
    ...(init.credentials ? { credentials: init.credentials } : {}),
    ...(init.mode ? { mode: init.mode } : {}),
  };
}

/** A fetch whose network work runs on `worker`. */
export function createWorkerFetch(worker: Worker, fallback: Fetch): Fetch {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  const post = (m: ToWorker) => worker.postMessage(m);
  worker.onmessage = (e: MessageEvent<FromWorker>) => {
    const m = e.data;
    const p = pending.get(m.id);
    if (!p) return;
    if (m.t === 'head') p.onHead(m);
    else if (m.t === 'chunk') p.onChunk(m.value);
    else if (m.t === 'end') p.onEnd();
    else p.onFail(errorFrom(m.name, m.message));
  };
  // A worker that failed to start (or died) would leave every request waiting: those in flight
  // fail as a network error would, and later ones take the plain fetch.
  let broken = false;
  worker.onerror = (e: ErrorEvent) => {
    broken = true;
    for (const p of [...pending.values()]) p.onFail(new TypeError(`Loupe's fetch worker failed: ${e.message || 'it did not start'}`));
  };

  return (input, init) => {
    const wire = wireInit(init);
    if (!wire || broken) return fallback(input, init);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = nextId++;
    return new Promise<Response>((resolve, reject) => {
      let body: ReadableStreamDefaultController<Uint8Array> | undefined;
      let pulled: (() => void) | undefined;
      /** Pieces that came while the page was not reading, and whether the end came after them. */
      const backlog: Uint8Array[] = [];
      let ended = false;
      /** Bytes handed to the page's stream (each read by the time it pulls again: its queue holds one). */
      let enqueued = 0;
      const hand = (c: ReadableStreamDefaultController<Uint8Array>, piece: Uint8Array) => {
        enqueued += piece.byteLength;
        c.enqueue(piece);
      };
      const done = () => {
        pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
        pulled?.();
      };
      const stream = new ReadableStream<Uint8Array>(
        {
          start: (c) => {
            body = c;
          },
          // Called when the page reads and the queue is empty. A piece that is here already is
          // handed over in a task of its own: a backlog read in one go (its events parsed, its
          // frames made) would be one long task. Else the worker hears what was read (it stops
          // at a window of unread bytes) and the next piece comes with its message.
          pull: (c) =>
            new Promise<void>((r) => {
              post({ t: 'ack', id, consumed: enqueued });
              if (!backlog.length && !ended) {
                pulled = r;
                return;
              }
              void yieldToEventLoop().then(() => {
                const next = backlog.shift();
                if (next) hand(c, next);
                else c.close();
                r();
              });
            }),
          cancel: () => {
            done();
            post({ t: 'cancel', id });
          },
        },
        { highWaterMark: 0 },
      );
      const onAbort = () => {
        const reason: unknown = signal?.reason;
        post({ t: 'abort', id });
        done();
        reject(reason);
        try {
          body?.error(reason);
        } catch {
          /* the body was closed already */
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      pending.set(id, {
        onHead: (m) => {
          if (!m.body) done();
          resolve(responseOf(m, stream));
        },
        onChunk: (value) => {
          const r = pulled;
          pulled = undefined;
          if (r && body) hand(body, value);
          else backlog.push(value);
          r?.();
        },
        onEnd: () => {
          if (pulled) body?.close();
          else ended = true;
          done();
        },
        onFail: (error) => {
          done();
          reject(error);
          try {
            body?.error(error);
          } catch {
            /* the body was closed already */
          }
        },
      });
      post({ t: 'fetch', id, url: new URL(input, globalThis.location?.href).toString(), init: wire });
    });
  };
}

let shared: Fetch | undefined;

/**
 * The fetch for the page's MCP traffic: on a worker in a browser, plain fetch elsewhere (Node
 * has no Worker global; a page that cannot start one falls back too).
 */
export function pageFetch(): Fetch {
  if (shared) return shared;
  const plain: Fetch = (input, init) => globalThis.fetch(input, init);
  const isBrowser = typeof window !== 'undefined' && typeof document !== 'undefined' && typeof Worker === 'function';
  const inNode = typeof process !== 'undefined' && !!process.versions?.node;
  if (!isBrowser || inNode) return plain;
  try {
    const source = `(${workerMain.toString()})()`;
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    shared = createWorkerFetch(new Worker(url, { name: 'loupe-fetch' }), plain);
  } catch {
    shared = plain;
  }
  return shared;
}
