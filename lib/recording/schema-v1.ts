import { z } from 'zod';
import type { Frame } from '../client/frames';
import { sha256Hex } from '../shared/fingerprint';
import { stripTargetSecrets } from './connection';
import { deriveStreams } from './streams';

/**
 * Version 1 of the recording format, the first one Loupe wrote: frames with short field names
 * (`time`, `dir`, `exchange`, `status`...), request/response kinds named `request`,
 * `response` and `sse-event`, no byte sizes, no streams or lints, and app HTML keyed by its
 * ui:// URI. Kept only so old files open: {@link migrateV1} upgrades it to version 2.
 */

const V1_KINDS = ['request', 'response', 'message', 'sse-open', 'sse-event', 'sse-comment', 'sse-close', 'error', 'bridge'] as const;

/** A version 1 frame. */
const FrameV1Schema = z.object({
  seq: z.number().int().min(0),
  time: z.number(),
  connection: z.string(),
  dir: z.enum(['out', 'in']),
  kind: z.enum(V1_KINDS),
  exchange: z.string(),
  stream: z.string().optional(),
  rpcId: z.union([z.string(), z.number()]).optional(),
  method: z.string().optional(),
  taskId: z.string().optional(),
  status: z.number().int().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  raw: z.string().optional(),
  duration: z.number().min(0).optional(),
  reason: z.string().optional(),
  error: z.string().optional(),
});
type FrameV1 = z.infer<typeof FrameV1Schema>;

/** A version 1 recording document. */
export const RecordingV1Schema = z.object({
  version: z.literal(1),
  /** Epoch milliseconds when the recording started. */
  recordedAt: z.number(),
  target: z.string(),
  era: z.enum(['modern', 'legacy']).optional(),
  client: z.object({ name: z.string(), version: z.string() }).optional(),
  frames: z.array(FrameV1Schema),
  /** App HTML keyed by ui:// URI. */
  html: z.record(z.string(), z.string()).optional(),
});
type RecordingV1 = z.infer<typeof RecordingV1Schema>;

const KIND: Record<FrameV1['kind'], Frame['kind']> = {
  request: 'http-request',
  response: 'http-response',
  message: 'message',
  'sse-open': 'sse-open',
  'sse-event': 'sse-frame',
  'sse-comment': 'sse-comment',
  'sse-close': 'sse-close',
  error: 'error',
  bridge: 'bridge',
};

/** UTF-8 length without encoding (opening 100,000 frames should not allocate 100,000 buffers). */
function utf8Length(text: string | undefined): number {
  if (!text) return 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const REASONS = new Set(['complete', 'server-closed', 'client-closed', 'network-error']);

function frameOf(f: FrameV1): Frame {
  const out: Frame = {
    seq: f.seq,
    at: f.time,
    connectionId: f.connection,
    direction: f.dir,
    kind: KIND[f.kind],
    exchangeId: f.exchange,
    bytes: utf8Length(f.raw),
  };
  if (f.stream !== undefined) out.streamId = f.stream;
  if (f.rpcId !== undefined) out.rpcId = f.rpcId;
  if (f.method !== undefined) out.method = f.method;
  if (f.taskId !== undefined) out.taskId = f.taskId;
  if (f.status !== undefined) out.httpStatus = f.status;
  if (f.headers !== undefined) out.headers = f.headers;
  if (f.body !== undefined) out.body = f.body;
  if (f.raw !== undefined) out.raw = f.raw;
  if (f.duration !== undefined) out.durationMs = f.duration;
  if (f.reason !== undefined && REASONS.has(f.reason)) out.closeReason = f.reason as Frame['closeReason'];
  if (f.error !== undefined) out.errorText = f.error;
  return out;
}

/**
 * Upgrade a version 1 document to the version 2 shape. The input is not validated first (the
 * caller validates the result), so anything unexpected throws or yields an invalid result.
 */
export function migrateV1(doc: RecordingV1): Record<string, unknown> {
  const html: unknown = doc.html ?? {};
  if (!Array.isArray(doc.frames) || typeof doc.target !== 'string' || typeof html !== 'object' || html === null || Array.isArray(html))
    throw new Error('Failed to migrate: not a version 1 recording');
  const frames = doc.frames.map(frameOf);
  const apps: Record<string, string> = {};
  const views: { uri: string; digest: string; at: number }[] = [];
  for (const [uri, text] of Object.entries(html as Record<string, unknown>)) {
    if (typeof text !== 'string') throw new Error('Failed to migrate: app HTML must be text');
    const digest = sha256Hex(text);
    apps[digest] = text;
    views.push({ uri, digest, at: doc.recordedAt });
  }
  return {
    format: 'mcp-loupe-recording',
    version: 2,
    createdAt: new Date(doc.recordedAt).toISOString(),
    app: { name: 'mcp-loupe', version: 'unknown (format 1)' },
    connection: {
      target: stripTargetSecrets(doc.target),
      ...(doc.era ? { era: doc.era } : {}),
      ...(doc.client ? { clientInfo: doc.client } : {}),
      headerNames: [],
    },
    frames,
    streams: deriveStreams(frames),
    lints: {},
    apps,
    views,
  };
}
