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

/** A body whose declared length is within the cap: its chunks, joined once at the end. */
function readDeclared(req: IncomingMessage): Promise<string> {
  // Read before, or cut off: what the iterator gave (nothing, or a premature-close error).
  if (req.readableEnded) return Promise.resolve('');
  if (req.destroyed) return Promise.reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
  // Listeners are left on once the promise settled rather than taken off (four removals cost
  // more than the rest of the read): a later 'close' or 'error' cannot change a settled promise.
  return new Promise((resolve, reject) => {
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    req.on('data', (chunk: Buffer) => {
      if (first === undefined) first = chunk;
      else if (more === undefined) more = [first, chunk];
      else more.push(chunk);
    });
    req.on('end', () => resolve(more ? Buffer.concat(more).toString('utf8') : (first?.toString('utf8') ?? '')));
    // As the iterator did: an error, or a close before the end, rejects.
    req.on('error', reject);
    req.on('close', () => {
      if (!req.readableEnded) reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
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
