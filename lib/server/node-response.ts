import type { ServerResponse } from 'node:http';
import { DRIP_HEADER } from '../engine/fault-stream';
import type { HttpOutput } from '../engine/http-types';
import { createNodeSseSink } from './node-sse-sink';

/** Writing a web Response or the engine's HttpOutput to a node:http ServerResponse. */

/** Write a web Response to a ServerResponse, honouring back-pressure and client disconnects. */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key === 'set-cookie') return;
    headers[key] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length) headers['set-cookie'] = cookies;
  if (!response.body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  // A dripped body is slow on purpose: stream it like SSE instead of buffering it.
  if (!response.headers.get('content-type')?.startsWith('text/event-stream') && !response.headers.has(DRIP_HEADER)) {
    // A complete (JSON) body: one write with its length instead of chunked pieces.
    const bytes = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(bytes.byteLength);
    res.writeHead(response.status, headers).end(bytes);
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  const onClose = () => void reader.cancel().catch(() => {});
  res.on('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
      if (res.destroyed) break;
    }
  } catch {
    // The stream errored (a dropped-stream fault) or the client left. Node holds the last
    // write until the next tick, so cut the connection after it has gone out.
    setImmediate(() => res.destroy());
    return;
  } finally {
    res.off('close', onClose);
  }
  res.end();
}

/**
 * Write the engine's transport-neutral answer: events straight to the socket, a string in one
 * write. Not async: a complete answer, nearly every one, is written before this returns and costs
 * no promise; a stream returns the promise of its end.
 */
export function writeHttpOutput(out: HttpOutput, res: ServerResponse): Promise<void> | undefined {
  // An instance-down fault: the client sees its connection reset, as from a dead instance.
  if (out.reset) return void res.destroy();
  if (out.attach) {
    res.writeHead(out.status, out.headers);
    res.flushHeaders();
    out.attach(createNodeSseSink(res));
    return undefined;
  }
  if (out.stream) return writeWebResponse(new Response(out.stream, { status: out.status, headers: out.headers }), res);
  const body = out.body;
  if (body === undefined) return void res.writeHead(out.status, out.headers).end();
  // A string body lets node send headers and body in one write. The headers go as one flat
  // name/value array: node takes it as is, where a record is walked key by key and copied.
  const head: string[] = [];
  const h = out.headers;
  for (const name in h) head.push(name, h[name] as string);
  head.push('content-length', String(Buffer.byteLength(body)));
  res.writeHead(out.status, head).end(body);
}
