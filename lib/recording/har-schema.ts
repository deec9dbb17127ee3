import { z } from 'zod';
import { FrameSchema } from '../client/frames';

/**
 * The parts of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) Loupe reads and
 * writes. Input is parsed loosely: browsers add their own `_fields` and leave out optional
 * ones. Loupe's exports carry `_loupe` extras (per entry: the frame metadata; per log: the
 * recording's metadata and frames HTTP cannot express) so that an export opens again exactly.
 */

const HarHeaderSchema = z.looseObject({ name: z.string(), value: z.string() });
/** A HAR header: name and value. */
export type HarHeader = z.infer<typeof HarHeaderSchema>;

/** Frame fields the HAR body and headers do not carry. */
const HarFrameMetaSchema = FrameSchema.omit({ headers: true, body: true, raw: true });
/** Frame fields the HAR body and headers do not carry. */
export type HarFrameMeta = z.infer<typeof HarFrameMetaSchema>;

/** Loupe's extras on an exported entry: the metadata of each frame of the exchange. */
const HarLoupeEntrySchema = z.object({ frames: z.array(HarFrameMetaSchema).min(1) });

/** One HAR entry (an HTTP exchange), parsed loosely. */
const HarEntrySchema = z.looseObject({
  startedDateTime: z.string(),
  time: z.number().optional(),
  request: z.looseObject({
    method: z.string(),
    url: z.string(),
    httpVersion: z.string().optional(),
    headers: z.array(HarHeaderSchema).default([]),
    postData: z.looseObject({ mimeType: z.string().optional(), text: z.string().optional() }).optional(),
  }),
  response: z.looseObject({
    status: z.number(),
    statusText: z.string().optional(),
    headers: z.array(HarHeaderSchema).default([]),
    content: z
      .looseObject({ size: z.number().optional(), mimeType: z.string().optional(), text: z.string().optional(), encoding: z.string().optional() })
      .default({}),
    _error: z.string().nullish(),
  }),
  timings: z
    .looseObject({
      blocked: z.number().optional(),
      dns: z.number().optional(),
      connect: z.number().optional(),
      ssl: z.number().optional(),
      send: z.number().optional(),
      wait: z.number().optional(),
      receive: z.number().optional(),
    })
    .optional(),
  _resourceType: z.string().optional(),
  _loupe: HarLoupeEntrySchema.optional(),
});
/** One HAR entry: a request, its response and timings, and Loupe's extras when Loupe wrote it. */
export type HarEntry = z.infer<typeof HarEntrySchema>;

/** Loupe's extras on an exported log: the recording's metadata. */
const HarLoupeLogSchema = z.looseObject({
  createdAt: z.string(),
  app: z.object({ name: z.string(), version: z.string() }),
  connection: z.record(z.string(), z.unknown()),
  /** Frames that are not HTTP exchanges (app bridge messages, stdio messages). */
  otherFrames: z.array(FrameSchema).default([]),
  apps: z.record(z.string(), z.string()).default({}),
  views: z.array(z.unknown()).default([]),
  lints: z.record(z.string(), z.array(z.unknown())).default({}),
  redaction: z.unknown().optional(),
});

/** A HAR document (`log.entries`). */
export const HarSchema = z.looseObject({
  log: z.looseObject({
    version: z.string().optional(),
    creator: z.looseObject({ name: z.string(), version: z.string().optional() }).optional(),
    entries: z.array(HarEntrySchema),
    _loupe: HarLoupeLogSchema.optional(),
  }),
});

/** Whether a parsed JSON document looks like a HAR (`log.entries`). */
export function looksLikeHar(doc: unknown): boolean {
  const log = doc && typeof doc === 'object' ? (doc as { log?: { entries?: unknown } }).log : undefined;
  return !!log && Array.isArray(log.entries);
}
