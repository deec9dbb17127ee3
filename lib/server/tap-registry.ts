import { randomToken } from '../engine/runtime';
import type { TapFrame as Frame, TapInfo, TapRegister } from '../recording/tap-api';
import type { TapFaultEntry } from '../scenario/tap-faults';

/**
 * The running Loupe's book of live taps: each `mcp-loupe tap` process registers its session
 * and pushes the frames it observes; pages follow a tap through its listeners. Memory is
 * bounded: a tap keeps its newest frames within a byte budget, and only the newest taps are
 * kept (ended ones go first).
 */

/** What a tap's followers are told. */
export type TapEvent = { type: 'frames'; frames: Frame[] } | { type: 'faults'; faults: TapFaultEntry[] } | { type: 'end'; endedAt: number };

interface LiveTap {
  info: TapInfo;
  frames: Frame[];
  bytes: number;
  faults: TapFaultEntry[];
  listeners: Set<(event: TapEvent) => void>;
}

interface TapRegistryOptions {
  maxTaps?: number;
  /** Approximate bytes of frames kept per tap. */
  maxBytesPerTap?: number;
  now?: () => number;
}

export interface TapRegistry {
  register(request: TapRegister, faults: TapFaultEntry[]): TapInfo;
  list(): TapInfo[];
  /** The tap's info, frames and faults, or undefined for an unknown id. */
  get(id: string): { info: TapInfo; frames: readonly Frame[]; faults: TapFaultEntry[] } | undefined;
  push(id: string, frames: Frame[]): boolean;
  setFaults(id: string, faults: TapFaultEntry[]): boolean;
  end(id: string): boolean;
  /** Follow a tap; undefined for an unknown id, else the unsubscribe. */
  follow(id: string, listener: (event: TapEvent) => void): (() => void) | undefined;
}

const cost = (f: Frame) => f.bytes * 2 + 256;

/** Create the registry of one Loupe process. */
export function createTapRegistry(options: TapRegistryOptions = {}): TapRegistry {
  const taps = new Map<string, LiveTap>();
  const now = options.now ?? (() => Date.now());
  const maxTaps = options.maxTaps ?? 32;
  const maxBytes = options.maxBytesPerTap ?? 64 * 1024 * 1024;
  const emit = (tap: LiveTap, event: TapEvent) => {
    for (const l of tap.listeners) l(event);
  };

  function evict(): void {
    while (taps.size > maxTaps) {
      const victim = [...taps.values()].find((t) => t.info.endedAt !== undefined) ?? [...taps.values()][0];
      if (!victim) return;
      taps.delete(victim.info.id);
    }
  }

  return {
    register(request, faults) {
      const info: TapInfo = { id: `tap-${randomToken(6)}`, target: request.target, transport: request.transport, startedAt: now(), frames: 0 };
      taps.set(info.id, { info, frames: [], bytes: 0, faults, listeners: new Set() });
      evict();
      return { ...info };
    },
    list: () => [...taps.values()].map((t) => ({ ...t.info })).reverse(),
    get(id) {
      const tap = taps.get(id);
      return tap ? { info: { ...tap.info }, frames: tap.frames, faults: tap.faults } : undefined;
    },
    push(id, frames) {
      const tap = taps.get(id);
      if (!tap) return false;
      for (const f of frames) {
        tap.frames.push(f);
        tap.bytes += cost(f);
      }
      tap.info.frames += frames.length;
      // Past the budget the oldest tenth goes (the live view keeps the recent part of a long session).
      if (tap.bytes > maxBytes) {
        const drop = Math.max(1, Math.ceil(tap.frames.length / 10));
        for (const f of tap.frames.splice(0, drop)) tap.bytes -= cost(f);
      }
      if (frames.length) emit(tap, { type: 'frames', frames });
      return true;
    },
    setFaults(id, faults) {
      const tap = taps.get(id);
      if (!tap) return false;
      tap.faults = faults;
      emit(tap, { type: 'faults', faults });
      return true;
    },
    end(id) {
      const tap = taps.get(id);
      if (!tap) return false;
      tap.info.endedAt ??= now();
      emit(tap, { type: 'end', endedAt: tap.info.endedAt });
      return true;
    },
    follow(id, listener) {
      const tap = taps.get(id);
      if (!tap) return undefined;
      tap.listeners.add(listener);
      return () => tap.listeners.delete(listener);
    },
  };
}
