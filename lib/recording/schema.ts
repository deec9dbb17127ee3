import { z } from 'zod';
import { compactFrame, FrameSchema, type Frame } from '../client/frames';
import { LintSchema } from '../protocol';
import { isExactFrame } from './frame-check';
import { migrateV1, RecordingV1Schema } from './schema-v1';

/**
 * The recording format: a versioned JSON document holding one inspector session. Frames are
 * the client's Frame model as it went over the wire (exports are redacted separately); the
 * connection metadata never holds secret values (no Authorization or cookie values, no
 * token query parameters). App HTML is stored once per SHA-256 digest and referenced by
 * the app views. Older versions open through the ordered {@link migrations}.
 */

/** The format marker of every recording document. */
export const RECORDING_FORMAT = 'mcp-loupe-recording';
/**
 * The version this build writes. 3: frames may be `fault` marks (kind `fault`, the `fault`
 * field) and authorization steps (`lane: 'auth'`, the `auth` field). A version 2 reader rejects
 * the first with an unclear field error and silently drops the second's fields (auth steps read
 * as MCP traffic), so every file this build writes says 3: a version 2 build then refuses it
 * and asks to be updated, instead of mis-reading it.
 */
export const RECORDING_VERSION = 3;

/** What the session talked to; values of secret headers are never stored, only their names. */
const ConnectionMetaSchema = z.object({
  /** The endpoint (or command line), with credentials and token query parameters removed. */
  target: z.string(),
  transport: z.enum(['http', 'proxy', 'memory', 'stdio']).optional(),
  era: z.enum(['modern', 'legacy', 'auto']).optional(),
  protocolVersion: z.string().optional(),
  clientInfo: z.looseObject({ name: z.string(), version: z.string() }).optional(),
  serverInfo: z.looseObject({ name: z.string(), version: z.string() }).optional(),
  /** Names of the custom headers the user configured (their values are not recorded). */
  headerNames: z.array(z.string()).default([]),
});
/** What the session talked to (see ConnectionMetaSchema). */
export type ConnectionMeta = z.infer<typeof ConnectionMetaSchema>;

/** One SSE stream of the session: its exchange, lifetime and how it ended. */
const StreamSummarySchema = z.object({
  streamId: z.string(),
  exchangeId: z.string(),
  connectionId: z.string(),
  method: z.string().optional(),
  rpcId: z.union([z.string(), z.number()]).optional(),
  openedAt: z.number(),
  closedAt: z.number().optional(),
  closeReason: z.enum(['complete', 'server-closed', 'client-closed', 'network-error']).optional(),
  /** Number of `sse-frame` events the stream carried. */
  frames: z.number().int().min(0),
});

/** An MCP App rendered during the session: which ui:// resource, which HTML, when. */
const RecordedAppViewSchema = z.object({
  uri: z.string(),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  at: z.number(),
  exchangeId: z.string().optional(),
  toolName: z.string().optional(),
});
/** An MCP App rendered during the session. */
export type RecordedAppView = z.infer<typeof RecordedAppViewSchema>;

/** Marks an export whose secrets were replaced by pseudonyms, and how many of each kind. */
const RedactionNoteSchema = z.object({
  redactedAt: z.string(),
  counts: z.record(z.string(), z.number().int().min(0)),
});

/** The current (version 3) recording document. */
export const RecordingSchema = z.object({
  format: z.literal(RECORDING_FORMAT),
  version: z.literal(RECORDING_VERSION),
  createdAt: z.string(),
  /** The Loupe build that wrote the file. */
  app: z.object({ name: z.string(), version: z.string() }),
  connection: ConnectionMetaSchema,
  frames: z.array(FrameSchema),
  streams: z.array(StreamSummarySchema).default([]),
  /** Lint findings keyed by exchangeId. */
  lints: z.record(z.string(), z.array(LintSchema)).default({}),
  /** App HTML keyed by the lower-case hex SHA-256 of the text. */
  apps: z.record(z.string().regex(/^[0-9a-f]{64}$/), z.string()).default({}),
  views: z.array(RecordedAppViewSchema).default([]),
  redaction: RedactionNoteSchema.optional(),
});
/** A recording document (see RecordingSchema). */
export type Recording = z.infer<typeof RecordingSchema>;

/**
 * One upgrade step. `migrate` receives a document that declares version `from` and returns one
 * for `to`; it must not trust its input (the result is validated once, at the end, which keeps
 * opening a large file fast), and `schema` names the old version's fields when it fails.
 */
interface Migration {
  from: number;
  to: number;
  schema: z.ZodType;
  migrate(doc: unknown): unknown;
}

/** Every migration, in order: each version's document is upgraded step by step to the current one. */
export const migrations: readonly Migration[] = [
  { from: 1, to: 2, schema: RecordingV1Schema, migrate: (doc) => migrateV1(doc as z.infer<typeof RecordingV1Schema>) },
  // Version 3 only added frame fields, so a version 2 document is a version 3 one as it stands.
  // Builds between the two wrote fault and auth frames under version 2: they are read as such.
  { from: 2, to: 3, schema: RecordingSchema.extend({ version: z.literal(2) }), migrate: (doc) => ({ ...(doc as object), version: 3 }) },
];

/** The outcome of opening a recording. `migratedFrom` is set when an older version was upgraded. */
export type OpenResult = { ok: true; recording: Recording; migratedFrom?: number } | { ok: false; error: string };

function describeIssues(error: z.ZodError, prefix: string): string {
  const first = error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(document)'}: ${i.message}`);
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return `${prefix}: ${first.join('; ')}${more}`;
}

/** The version a document declares, or undefined when it is not a recording at all. */
function versionOf(doc: unknown): number | undefined {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const v = (doc as { version?: unknown }).version;
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

/** Why a document's `version` names no recording format: missing, or not a whole number (shown as it came). */
function notAVersion(doc: unknown): string {
  const v = doc && typeof doc === 'object' && !Array.isArray(doc) ? (doc as { version?: unknown }).version : undefined;
  if (v === undefined) return 'Not a Loupe recording: no "version" field';
  const shown = JSON.stringify(v) ?? String(v);
  return `Not a Loupe recording: "version" must be a whole number (a recording format, ${RECORDING_VERSION} today), not ${shown.length > 40 ? `${shown.slice(0, 40)}…` : shown}`;
}

/** The document around the frames; frames are checked one by one in {@link validateCurrent}. */
const EnvelopeSchema = RecordingSchema.extend({ frames: z.array(z.unknown()) });

type Validated = { success: true; data: Recording } | { success: false; error: z.ZodError };

/**
 * Validate a current-version document against {@link RecordingSchema}. Frames take the fast
 * exact check; zod parses only a frame that fails it (stripping unknown keys, or reporting
 * the first invalid field as `frames.<index>.<field>`).
 */
function validateCurrent(doc: unknown): Validated {
  const envelope = EnvelopeSchema.safeParse(doc);
  if (!envelope.success) return envelope;
  const input = envelope.data.frames;
  const frames: Frame[] = new Array(input.length);
  for (let i = 0; i < input.length; i++) {
    const f = input[i];
    if (isExactFrame(f)) {
      frames[i] = f;
      continue;
    }
    const parsed = FrameSchema.safeParse(f);
    if (!parsed.success)
      return { success: false, error: new z.ZodError(parsed.error.issues.map((issue) => ({ ...issue, path: ['frames', i, ...issue.path] }))) };
    frames[i] = parsed.data;
  }
  return { success: true, data: { ...envelope.data, frames } };
}

/**
 * Open a recording document of any released version (already parsed JSON): migrate it step by
 * step, then validate it against the current schema. Never throws for bad input.
 */
export function openRecording(doc: unknown): OpenResult {
  const declared = versionOf(doc);
  if (declared === undefined) return { ok: false, error: notAVersion(doc) };
  let version: number = declared;
  if (version > RECORDING_VERSION)
    return { ok: false, error: `recording format ${version} is newer than this Loupe understands (${RECORDING_VERSION}); update mcp-loupe` };
  const from = version;
  let current = doc;
  let failed = false;
  while (version < RECORDING_VERSION && !failed) {
    const step = migrations.find((m) => m.from === version);
    if (!step) return { ok: false, error: `No migration from recording version ${version}` };
    try {
      current = step.migrate(current);
      version = step.to;
    } catch {
      failed = true;
    }
  }
  const parsed = failed ? undefined : validateCurrent(current);
  if (parsed?.success) return { ok: true, recording: parsed.data, ...(from !== RECORDING_VERSION ? { migratedFrom: from } : {}) };
  // Explain the failure in the terms of the version the file declares.
  const old = migrations.find((m) => m.from === from);
  const original = old?.schema.safeParse(doc);
  if (original && !original.success) return { ok: false, error: describeIssues(original.error, `Invalid version ${from} recording`) };
  return { ok: false, error: parsed ? describeIssues(parsed.error, 'Invalid recording') : `Failed to migrate the version ${from} recording` };
}

/**
 * The JSON text of a recording, as every writer (autosave, export, share link, CLI) stores it:
 * frames whose `raw` is exactly the JSON of their body are written once (see `compactFrame`),
 * which makes files about a third smaller and much faster to parse.
 */
export function serializeRecording(recording: Recording, space?: number): string {
  return JSON.stringify({ ...recording, frames: recording.frames.map(compactFrame) }, null, space);
}

/** Parse recording text (JSON) and open it. */
export function parseRecording(text: string): OpenResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Not JSON: ${(e as Error).message}` };
  }
  return openRecording(doc);
}
