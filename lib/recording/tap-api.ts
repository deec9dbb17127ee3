import { z } from 'zod';
import { FrameSchema, type Frame } from '../client/frames';

/**
 * The messages of the live tap feed (`/api/taps/...`): a tap process registers its session with
 * the running Loupe and pushes the frames it observes; the browser lists the taps and follows
 * one as server-sent events. Fault switches travel as `unknown` here and are parsed with the
 * scenario room's schema (lib/scenario/tap-faults.ts) where they are used.
 */

/** A frame as the tap feed carries it (the inspector's Frame, named here for the server room). */
export type TapFrame = Frame;

const TransportSchema = z.enum(['http', 'stdio']);

/** One tap as the list shows it. */
const TapInfoSchema = z.object({
  id: z.string(),
  target: z.string(),
  transport: TransportSchema,
  startedAt: z.number(),
  endedAt: z.number().optional(),
  frames: z.number().int().min(0),
});
/** One tap as the list shows it. */
export type TapInfo = z.infer<typeof TapInfoSchema>;

/** `GET /api/taps`. */
export const TapListSchema = z.object({ taps: z.array(TapInfoSchema) });

/** `POST /api/taps`: a tap process announces its session (its target is already stripped of secrets). */
export const TapRegisterSchema = z.object({
  target: z.string().max(4096),
  transport: TransportSchema,
  /** The faults of `--faults FILE`, as entries ({ id, enabled, fault }). */
  faults: z.array(z.unknown()).max(100).default([]),
  seed: z.union([z.number().int(), z.string().min(1).max(200)]).optional(),
});
export type TapRegister = z.infer<typeof TapRegisterSchema>;

/** `POST /api/taps` answers the new tap's id. */
export const TapRegisteredSchema = z.object({ id: z.string() });

/** At most this many frames per push. */
export const MAX_FRAMES_PER_PUSH = 2000;

/** `POST /api/taps/<id>/frames`. */
export const TapFramesSchema = z.object({ frames: z.array(FrameSchema).max(MAX_FRAMES_PER_PUSH) });

/** The events of `GET /api/taps/<id>/events` (data of each SSE event, by event name). */
export const TapSnapshotEventSchema = z.object({ tap: TapInfoSchema, frames: z.array(FrameSchema), faults: z.array(z.unknown()) });
export const TapFramesEventSchema = TapFramesSchema;
export const TapFaultsEventSchema = z.object({ faults: z.array(z.unknown()) });
export const TapEndEventSchema = z.object({ endedAt: z.number() });
