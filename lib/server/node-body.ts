import type { IncomingMessage } from 'node:http';

/** Reading a node:http request body with node streams (no web-stream bridge). */

/** The whole body, as bytes; callers decide beforehand that it is small enough to hold. */
export async function readNodeBody(req: IncomingMessage): Promise<Buffer<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The body as UTF-8 text, or undefined as soon as it exceeds `max` bytes. */
export async function readNodeBodyText(req: IncomingMessage, max: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    total += (chunk as Buffer).byteLength;
    if (total > max) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
