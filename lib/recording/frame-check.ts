import { CloseReasonSchema, FRAME_KINDS, FrameSchema, type Frame } from '../client/frames';

/**
 * A fast exact check of a recorded frame: true only for a value `FrameSchema` accepts as it
 * is (no unknown keys, so zod would return an equal copy). Opening a 100,000-frame recording
 * with zod alone costs ~300 ms of a 2 s budget; with this check zod only sees the odd frame,
 * to strip unknown keys or to say exactly what is wrong. `FrameSchema` stays the definition:
 * the key list is read from it, and a property test keeps the two in agreement.
 */

const KEYS = new Set(Object.keys(FrameSchema.shape));
const KINDS = new Set<string>(FRAME_KINDS);
const CLOSE_REASONS = new Set<string>(CloseReasonSchema.options);
const OPTIONAL_STRINGS = ['streamId', 'conversationId', 'method', 'taskId', 'raw', 'errorText'] as const;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;

function isStringRecord(v: unknown): boolean {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  for (const k in v) if (typeof (v as Record<string, unknown>)[k] !== 'string') return false;
  return true;
}

/** Whether `v` is a frame exactly as `FrameSchema` would return it. */
export function isExactFrame(v: unknown): v is Frame {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const f = v as Record<string, unknown>;
  for (const k in f) if (!KEYS.has(k)) return false;
  if (!isCount(f.seq) || !isNumber(f.at) || !isCount(f.bytes)) return false;
  if (typeof f.connectionId !== 'string' || typeof f.exchangeId !== 'string') return false;
  if (f.direction !== 'in' && f.direction !== 'out') return false;
  if (typeof f.kind !== 'string' || !KINDS.has(f.kind)) return false;
  for (const k of OPTIONAL_STRINGS) if (f[k] !== undefined && typeof f[k] !== 'string') return false;
  if (f.rpcId !== undefined && typeof f.rpcId !== 'string' && !isNumber(f.rpcId)) return false;
  if (f.httpStatus !== undefined && !Number.isSafeInteger(f.httpStatus)) return false;
  if (f.headers !== undefined && !isStringRecord(f.headers)) return false;
  if (f.durationMs !== undefined && !(isNumber(f.durationMs) && f.durationMs >= 0)) return false;
  if (f.closeReason !== undefined && (typeof f.closeReason !== 'string' || !CLOSE_REASONS.has(f.closeReason))) return false;
  // Auth-lane steps are rare: zod checks them.
  if (f.lane !== undefined || f.auth !== undefined) return false;
  // So are the tap's fault marks.
  if (f.fault !== undefined) return false;
  return true;
}
