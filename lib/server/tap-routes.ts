import { TapFramesSchema, TapRegisterSchema } from '../recording/tap-api';
import { TapFaultEntrySchema, TapFaultListSchema, type TapFaultEntry } from '../scenario/tap-faults';
import type { TapEvent, TapRegistry } from './tap-registry';
import { json, readText } from './respond';

/**
 * The live tap routes under `/api/taps`, behind the control API's gate (launch token):
 *
 *   GET  /api/taps                    the taps this Loupe has seen, newest first
 *   POST /api/taps                    a tap process registers ({ target, transport, faults }) → { id }
 *   POST /api/taps/<id>/frames        the tap pushes frames ({ frames })
 *   POST /api/taps/<id>/end           the tap ended
 *   GET  /api/taps/<id>/faults        { faults }
 *   PUT  /api/taps/<id>/faults        switch faults ({ faults }); the tap process applies them
 *   GET  /api/taps/<id>/events        SSE: `tap:snapshot`, `tap:frames`, `tap:faults`, `tap:end`;
 *                                     `?control=1` leaves the frames out (what the tap process reads)
 */

/** Pushed frames come in batches; a batch of large messages still fits. */
const MAX_PUSH_BYTES = 32 * 1024 * 1024;

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

async function readJson(req: Request, max: number): Promise<unknown> {
  const text = await readText(req, max);
  if (text === undefined) return undefined;
  try {
    return text ? (JSON.parse(text) as unknown) : {};
  } catch {
    return undefined;
  }
}

/** The valid entries of a registering tap's fault list (an invalid one is dropped, not fatal). */
function validEntries(list: readonly unknown[]): TapFaultEntry[] {
  return list.flatMap((e) => {
    const parsed = TapFaultEntrySchema.safeParse(e);
    return parsed.success ? [parsed.data] : [];
  });
}

function eventStream(taps: TapRegistry, id: string, withFrames: boolean, signal: AbortSignal, keepAliveMs: number): Response {
  const encoder = new TextEncoder();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (type: string, data: unknown) => {
        if (!closed) controller.enqueue(encoder.encode(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`));
      };
      const snapshot = taps.get(id);
      if (!snapshot) return controller.close();
      controller.enqueue(encoder.encode('retry: 1000\n\n'));
      send('tap:snapshot', { tap: snapshot.info, frames: withFrames ? snapshot.frames : [], faults: snapshot.faults });
      const off = taps.follow(id, (event: TapEvent) => {
        if (event.type === 'frames') {
          if (withFrames) send('tap:frames', { frames: event.frames });
        } else if (event.type === 'faults') send('tap:faults', { faults: event.faults });
        else send('tap:end', { endedAt: event.endedAt });
      });
      const timer = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(': keep-alive\n\n'));
      }, keepAliveMs);
      const finish = () => {
        if (closed) return;
        closed = true;
        off?.();
        clearInterval(timer);
        try {
          controller.close();
        } catch {
          /* already cancelled by the reader */
        }
      };
      stop = finish;
      signal.addEventListener('abort', finish, { once: true });
      if (signal.aborted) finish();
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, { status: 200, headers: SSE_HEADERS });
}

/** Handle `/api/taps/<parts...>` (the gate has already admitted the request). */
export async function tapRoutes(req: Request, taps: TapRegistry, parts: string[], keepAliveMs = 15_000): Promise<Response> {
  const [id, route, ...extra] = parts;
  const noRoute = () => json(404, { error: `No control route ${req.method} /api/taps/${parts.join('/')}` });
  if (id === undefined) {
    if (req.method === 'GET') return json(200, { taps: taps.list() });
    if (req.method !== 'POST') return noRoute();
    const body = TapRegisterSchema.safeParse(await readJson(req, 1024 * 1024));
    if (!body.success) return json(400, { error: 'Body must be JSON: { "target": "...", "transport": "http" | "stdio", "faults": [] }' });
    return json(201, { id: taps.register(body.data, validEntries(body.data.faults)).id });
  }
  if (extra.length) return noRoute();
  const tap = taps.get(id);
  if (!tap) return json(404, { error: `Unknown tap: ${id}` });
  if (route === 'frames' && req.method === 'POST') {
    const body = TapFramesSchema.safeParse(await readJson(req, MAX_PUSH_BYTES));
    if (!body.success) return json(400, { error: 'Body must be JSON: { "frames": [Frame, ...] }, at most 2000 frames' });
    taps.push(id, body.data.frames);
    return json(200, { frames: tap.info.frames + body.data.frames.length });
  }
  if (route === 'end' && req.method === 'POST') {
    taps.end(id);
    return json(200, { ended: id });
  }
  if (route === 'faults' && req.method === 'GET') return json(200, { faults: tap.faults });
  if (route === 'faults' && req.method === 'PUT') {
    const body = TapFaultListSchema.safeParse(await readJson(req, 1024 * 1024));
    if (!body.success) {
      const issue = body.error.issues[0];
      return json(422, { error: `Invalid faults: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}` });
    }
    taps.setFaults(id, body.data.faults);
    return json(200, { faults: body.data.faults });
  }
  if (route === 'events' && req.method === 'GET') {
    const control = new URL(req.url).searchParams.get('control') === '1';
    return eventStream(taps, id, !control, req.signal, keepAliveMs);
  }
  return noRoute();
}
