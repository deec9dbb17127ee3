import { parse } from 'yaml';
import { z } from 'zod';
import { FaultSchema, SeedSchema, type Fault } from './fault-schema';

/**
 * Faults switched on a live tap: the scenario's fault kinds and match rules, each with an id and
 * an on/off switch. They come from a scenario-style file (`mcp-loupe tap --faults faults.yaml`:
 * a list of faults, or `{ seed, faults }`) and from the tap's page in the UI.
 */

// A tap relays one server's traffic: it has no instance of its own to take down or make lag.
const TapFaultSchema = FaultSchema.refine((fault) => fault.action.kind !== 'instance-down' && fault.action.kind !== 'instance-skew', {
  message: 'instance-down and instance-skew are faults of a mock instance; a tap cannot apply them',
  path: ['action', 'kind'],
});

/** One fault of a tap and whether it is switched on. */
export const TapFaultEntrySchema = z.object({ id: z.string().min(1).max(64), enabled: z.boolean(), fault: TapFaultSchema });
export type TapFaultEntry = z.infer<typeof TapFaultEntrySchema>;

/** The whole switchboard of a tap (`PUT /api/taps/<id>/faults`). */
export const TapFaultListSchema = z.object({ faults: z.array(TapFaultEntrySchema).max(100) });

// Picked by shape, so an error names the field inside the list rather than "no union member".
const FaultListSchema = z.array(TapFaultSchema);
const FaultsDocumentSchema = z.strictObject({ seed: SeedSchema.optional(), faults: FaultListSchema });

/** Entries for faults (switched on), ids from their names or positions. */
function toTapFaultEntries(faults: readonly Fault[]): TapFaultEntry[] {
  return faults.map((fault, i) => ({ id: fault.name ?? `${fault.action.kind}-${i + 1}`, enabled: true, fault }));
}

/** Parse a faults file (YAML or JSON); the error names the field that is wrong. */
export function parseFaultsFile(text: string): { ok: true; entries: TapFaultEntry[]; seed?: number | string } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = parse(text);
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
  const parsed = Array.isArray(data) ? FaultListSchema.safeParse(data) : FaultsDocumentSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `${issue?.path.join('.') || '(top)'}: ${issue?.message ?? 'invalid'}` };
  }
  const faults = Array.isArray(parsed.data) ? parsed.data : parsed.data.faults;
  const seed = Array.isArray(parsed.data) ? undefined : parsed.data.seed;
  return { ok: true, entries: toTapFaultEntries(faults), ...(seed !== undefined ? { seed } : {}) };
}

/** Ready-made faults the tap's page offers to switch on with one click. */
export const TAP_FAULT_PRESETS: readonly TapFaultEntry[] = [
  { id: 'http-503', enabled: false, fault: { name: 'http-503', match: {}, action: { kind: 'http-status', status: 503, retryAfter: 1 } } },
  { id: 'latency-500ms', enabled: false, fault: { name: 'latency-500ms', match: {}, action: { kind: 'latency', ms: 500 } } },
  { id: 'drop-stream', enabled: false, fault: { name: 'drop-stream', match: {}, action: { kind: 'drop', afterEvents: 1 } } },
  { id: 'stall-stream', enabled: false, fault: { name: 'stall-stream', match: {}, action: { kind: 'stall', afterEvents: 0 } } },
  { id: 'garbage-frame', enabled: false, fault: { name: 'garbage-frame', match: {}, action: { kind: 'garbage', afterEvents: 0 } } },
  { id: 'duplicate-notifications', enabled: false, fault: { name: 'duplicate-notifications', match: {}, action: { kind: 'duplicate' } } },
];
