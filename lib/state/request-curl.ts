import { z } from 'zod';
import { headerRows } from './header-mask';
import type { TimelineBuffer } from './timeline-buffer';
import type { TimelineEntry } from './timeline-types';

/**
 * A timeline request as something to take elsewhere: the exact cURL command that sends it again
 * (URL, POST, every header that went, `Mcp-*` and `MCP-Protocol-Version` included, the body),
 * with secrets (Authorization, cookies, a task id in `Mcp-Name`) masked unless revealed; and its
 * JSON-RPC message, parsed for edit-and-resend.
 */

/** Entries scanned from an exchange's first entry to find its request. */
const REQUEST_SCAN = 64;

/** The request entry of the exchange `entry` belongs to (itself when it is one). */
export function requestOfEntry(buffer: TimelineBuffer, entry: TimelineEntry): TimelineEntry | undefined {
  const isRequest = (x: TimelineEntry) => x.direction === 'out' && (x.kind === 'http-request' || (x.kind === 'message' && x.rpcKind === 'request'));
  if (isRequest(entry)) return entry;
  const span = buffer.span(`exchange:${entry.exchangeId}`);
  if (!span) return undefined;
  for (let id = span.firstId; id <= span.lastId && id < span.firstId + REQUEST_SCAN; id++) {
    const x = buffer.get(id);
    if (x && x.exchangeId === entry.exchangeId && isRequest(x)) return x;
  }
  return undefined;
}

/** A word for a POSIX shell, in single quotes (a quote inside becomes '\''). */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Headers cURL sets itself or that describe the old connection, not the request. */
const SKIP = new Set(['content-length', 'host', 'connection']);

/** The cURL command for a request: `url`, its headers (secrets masked unless `reveal`), its body. */
export function curlCommand(o: { url: string; headers: Record<string, string> | undefined; body: string; method?: string; reveal: boolean }): string {
  const lines = [`curl -X POST ${shellQuote(o.url)}`];
  for (const h of headerRows(o.headers, o.method, o.reveal)) if (!SKIP.has(h.name.toLowerCase())) lines.push(`-H ${shellQuote(`${h.name}: ${h.value}`)}`);
  lines.push(`--data-raw ${shellQuote(o.body)}`);
  return lines.join(' \\\n  ');
}

/** What edit-and-resend accepts: a JSON-RPC request (its id is replaced by a fresh one). */
const EditedRequestSchema = z.object({
  jsonrpc: z.literal('2.0').optional(),
  id: z.union([z.string(), z.number()]).optional(),
  method: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** The method and params of an edited request, or what is wrong with it. */
export function parseEditedRequest(text: string): { ok: true; method: string; params?: Record<string, unknown> } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Not JSON: ${(e as Error).message}` };
  }
  const r = EditedRequestSchema.safeParse(json);
  if (!r.success) return { ok: false, error: r.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ') };
  return { ok: true, method: r.data.method, ...(r.data.params ? { params: r.data.params } : {}) };
}
