import type { IncomingMessage } from 'node:http';

/** Reading a node:http request body with node streams (no web-stream bridge). */

/** The whole body, as bytes; callers decide beforehand that it is small enough to hold. */
export async function readNodeBody(req: IncomingMessage): Promise<Buffer<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The body as UTF-8 text, or undefined as soon as it exceeds `max` bytes. */
export function readNodeBodyText(req: IncomingMessage, max: number): Promise<string | undefined> {
  // node's parser holds a body to its declared length, so a declared length within the cap needs
  // no counting: read it with plain events (an async iterator cost several promises per chunk).
  const declared = Number(req.headers['content-length']);
  return declared <= max && req.headers['transfer-encoding'] === undefined ? readDeclared(req) : readCounted(req, max);
}

/** A declared-length body on its way: how to settle its promise, and the chunks so far. */
interface PendingBody {
  resolve: (text: string) => void;
  reject: (error: Error) => void;
  first: Buffer | undefined;
  more: Buffer[] | undefined;
}

/**
 * The read in progress on a request. The listeners below are shared by every request (node
 * calls them with the request as `this`) where each read made four closures of its own.
 */
const READING = Symbol('loupe.body');
type Reading = IncomingMessage & { [READING]?: PendingBody };

function onData(this: Reading, chunk: Buffer): void {
  const p = this[READING];
  if (p === undefined) return;
  if (p.first === undefined) p.first = chunk;
  else if (p.more === undefined) p.more = [p.first, chunk];
  else p.more.push(chunk);
}

function onEnd(this: Reading): void {
  const p = this[READING];
  if (p === undefined) return;
  this[READING] = undefined;
  p.resolve(p.more ? Buffer.concat(p.more).toString('utf8') : (p.first?.toString('utf8') ?? ''));
}

function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

// As the iterator did: an error, or a close before the end, rejects.
function onError(this: Reading, error: Error): void {
  const p = this[READING];
  if (p === undefined) return;
  this[READING] = undefined;
  p.reject(error);
}

function onClose(this: Reading): void {
  const p = this[READING];
  if (p === undefined || this.readableEnded) return;
  this[READING] = undefined;
  p.reject(prematureClose());
}

const unset = () => {};

/** A body whose declared length is within the cap: its chunks, joined once at the end. */
function readDeclared(req: Reading): Promise<string> {
  // Read before, or cut off: what the iterator gave (nothing, or a premature-close error).
  if (req.readableEnded) return Promise.resolve('');
  if (req.destroyed) return Promise.reject(prematureClose());
  // Listeners are left on once the promise settled rather than taken off (four removals cost
  // more than the rest of the read): a settled read is gone from the request, so they do nothing.
  const p: PendingBody = { resolve: unset, reject: unset, first: undefined, more: undefined };
  const body = new Promise<string>((resolve, reject) => {
    p.resolve = resolve;
    p.reject = reject;
  });
  req[READING] = p;
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
  return body;
}

/** Any other body: counted as it comes, given up past the cap. */
async function readCounted(req: IncomingMessage, max: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    total += (chunk as Buffer).byteLength;
    if (total > max) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
