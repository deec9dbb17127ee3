import { createFaultInjector, type FaultPlan } from '../engine/faults';
import type { TapFaultMark } from '../recording/tap-frames';
import type { TapFaultEntry } from '../scenario/tap-faults';
import { asRecord } from '../shared/records';

/**
 * The faults switched on for a tap, with the scenario engine's matching (method, tool, nth,
 * every, after, seeded probability). Switching the list restarts the counters, so "nth: 2"
 * means the second matching request after the switch.
 */
export interface TapFaults {
  /** Whether any fault is switched on (the relay takes its byte-for-byte fast path when not). */
  active(): boolean;
  /** The plan for a client request body (its method and tool), or undefined when nothing fires. */
  plan(body: string): FaultPlan | undefined;
  /** The marks of a plan's faults (rule and kind each), for the timeline. */
  marks(plan: FaultPlan): TapFaultMark[];
  entries(): TapFaultEntry[];
  set(entries: TapFaultEntry[]): void;
  /** Called after every switch (the tap's own log). */
  onChange(listener: (entries: TapFaultEntry[]) => void): void;
}

function requestOf(body: string): { method: string; tool?: string } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  const m = asRecord(message);
  if (typeof m?.method !== 'string' || !('id' in m)) return undefined;
  const name = asRecord(m.params)?.name;
  return { method: m.method, ...(typeof name === 'string' ? { tool: name } : {}) };
}

/** Create a tap's fault switchboard. */
export function createTapFaults(initial: TapFaultEntry[] = [], seed: number | string = 0): TapFaults {
  let entries = initial;
  // A fault is marked by its switch's id unless it has a name of its own.
  const injectorFor = (list: TapFaultEntry[]) =>
    createFaultInjector(
      list.filter((e) => e.enabled).map((e) => ({ ...e.fault, name: e.fault.name ?? e.id })),
      seed,
    );
  let injector = injectorFor(entries);
  // A plan names its faults by rule; the mark also says what kind of fault each one is.
  const kinds = (list: TapFaultEntry[]) => new Map(list.filter((e) => e.enabled).map((e) => [e.fault.name ?? e.id, e.fault.action.kind]));
  let kindOf = kinds(entries);
  const listeners: ((entries: TapFaultEntry[]) => void)[] = [];
  return {
    active: () => entries.some((e) => e.enabled),
    plan(body) {
      const request = requestOf(body);
      return request ? injector.plan(request) : undefined;
    },
    marks: (plan) => plan.names.map((rule) => ({ rule, kind: kindOf.get(rule) ?? 'fault' })),
    entries: () => entries,
    set(next) {
      entries = next;
      injector = injectorFor(entries);
      kindOf = kinds(entries);
      for (const l of listeners) l(entries);
    },
    onChange: (listener) => void listeners.push(listener),
  };
}
