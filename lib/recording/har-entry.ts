import type { HarEntry, HarHeader } from './har-schema';

/** Reading one HAR entry: its bodies as JSON, its headers as a record, its response text and type. */

/** A body as JSON: the value, or the parse error; nothing for an empty body. */
export function parseBody(text: string | undefined): { body?: unknown; parseError?: string } {
  if (text === undefined || text === '') return {};
  try {
    return { body: JSON.parse(text) as unknown };
  } catch (e) {
    return { parseError: (e as Error).message };
  }
}

/** Header list → lower-cased record (repeated names joined, as fetch's Headers does). */
export function entryHeaders(list: HarHeader[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of list) {
    const k = name.toLowerCase();
    // HTTP/2 pseudo-headers (:authority, :path) are not headers a client sets.
    if (k.startsWith(':')) continue;
    out[k] = k in out ? `${out[k]}, ${value}` : value;
  }
  return out;
}

/** The response body text (HAR content may be base64-encoded). */
export function contentText(entry: HarEntry): string | undefined {
  const c = entry.response.content;
  if (c.text === undefined) return undefined;
  if (c.encoding !== 'base64') return c.text;
  try {
    const bin = atob(c.text);
    return new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** Whether the entry's response is an SSE stream. */
export const isSse = (entry: HarEntry) =>
  (entry.response.content.mimeType ?? entryHeaders(entry.response.headers)['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');
