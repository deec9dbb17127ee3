import type { Fault, FaultAction, FaultMatch } from '../scenario/fault-schema';

/**
 * Fault evaluation: which of a scenario's faults fire on a request, decided from per-fault
 * counters and seeded PRNGs only, so the same seed and the same request sequence give the same
 * faults on every run. Each fault draws from its own PRNG, so adding a fault does not change when
 * the others fire (for named faults). Applying the faults to the wire is http.ts's and fault-stream.ts's job.
 */

/** Faults that answer in the server's place. */
export type ReplyFault = Extract<FaultAction, { kind: 'rpc-error' | 'http-status' }>;
/** Faults that damage an SSE stream. */
export type StreamFault = Extract<FaultAction, { kind: 'stall' | 'drop' | 'garbage' | 'duplicate' | 'out-of-order' }>;
/** A slow write of the response body. */
export type DripFault = Extract<FaultAction, { kind: 'drip' }>;

const STREAM_KINDS = new Set(['stall', 'drop', 'garbage', 'duplicate', 'out-of-order']);

/** What the faults that fired on one request do to it. */
export interface FaultPlan {
  /** Labels of the faults that took effect, for the journal. */
  names: string[];
  /** Total delay before the request runs (latency faults). */
  delayMs: number;
  /** Answer with this instead of running the request. */
  reply?: ReplyFault;
  /** Damage to apply to the response stream (forces an SSE answer). */
  stream: StreamFault[];
  drip?: DripFault;
  /** A PRNG for this request (shuffles), seeded from the firing fault's sequence. */
  random: () => number;
}

/** The request attributes faults match on. */
export interface FaultRequest {
  method: string;
  /** tools/call's tool name. */
  tool?: string;
}

/** Evaluates a scenario's faults, keeping their counters and PRNGs. */
interface FaultInjector {
  /** Count the request against every fault it matches; undefined when none fires. */
  plan(request: FaultRequest): FaultPlan | undefined;
  /** Zero the counters and restart the PRNGs from the seed. */
  reset(): void;
  /** The numeric seed in use. */
  readonly seed: number;
}

/** mulberry32: a small, fast 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A seed as a 32-bit integer: integers as they are (also as text, e.g. `--seed 42`), other text hashed. */
export function hashSeed(seed: number | string): number {
  if (typeof seed === 'number') return seed >>> 0;
  return /^-?\d+$/.test(seed.trim()) ? Number(seed.trim()) >>> 0 : fnv1a(seed);
}

/** Whether a request is one the fault looks at (method and tool), before counting. */
function matchesRequest(match: FaultMatch, request: FaultRequest): boolean {
  if (match.method !== undefined) {
    const methods = Array.isArray(match.method) ? match.method : [match.method];
    if (!methods.includes(request.method)) return false;
  }
  if (match.tool !== undefined && (request.method !== 'tools/call' || request.tool !== match.tool)) return false;
  return true;
}

/** Whether the `n`th matching request (1-based) passes the counting conditions. */
function countPasses(match: FaultMatch, n: number): boolean {
  if (match.after !== undefined && n <= match.after) return false;
  if (match.nth !== undefined && !(Array.isArray(match.nth) ? match.nth : [match.nth]).includes(n)) return false;
  if (match.every !== undefined && n % match.every !== 0) return false;
  return true;
}

/** A latency fault's delay, drawn from `random` for distributions; never negative. */
export function sampleLatency(action: Extract<FaultAction, { kind: 'latency' }>, random: () => number): number {
  if (action.distribution === 'uniform') {
    const min = action.min ?? 0;
    return Math.round(min + random() * ((action.max ?? min) - min));
  }
  if (action.distribution === 'normal') {
    // Box-Muller; 1 - u keeps the logarithm finite.
    const u = 1 - random();
    const v = random();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.max(0, Math.round((action.mean ?? 0) + z * (action.stddev ?? 0)));
  }
  return action.ms ?? 0;
}

/** Shuffle a copy of `items` with `random` (Fisher-Yates). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    // 0 <= j <= i < out.length: both slots exist.
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The name a fault has in the journal and the report card: its own, else `kind#n`. */
export function faultLabel(fault: Fault, index: number): string {
  return fault.name ?? `${fault.action.kind}#${index + 1}`;
}

/** One fault with its match counter and its own PRNG. */
interface FaultState {
  fault: Fault;
  index: number;
  count: number;
  random: () => number;
}

/** Create the injector for a scenario's faults. */
export function createFaultInjector(faults: readonly Fault[], seed: number | string): FaultInjector {
  const base = hashSeed(seed);
  let states: FaultState[] = [];
  const reset = () => {
    // One stream per fault, keyed by its name (or position), so named faults keep their sequence when others are added.
    states = faults.map((fault, index) => ({ fault, index, count: 0, random: mulberry32(base ^ fnv1a(fault.name ?? `#${index}`)) }));
  };
  reset();

  return {
    seed: base,
    reset,
    plan(request) {
      let plan: FaultPlan | undefined;
      for (const state of states) {
        const { fault, random } = state;
        if (!matchesRequest(fault.match, request)) continue;
        state.count += 1;
        if (!countPasses(fault.match, state.count)) continue;
        if (fault.match.probability !== undefined && !(random() < fault.match.probability)) continue;
        // Every firing draws the same count from its own PRNG, whichever fault seeds the plan.
        const sub = Math.floor(random() * 4294967296);
        plan ??= { names: [], delayMs: 0, stream: [], random: mulberry32(sub) };
        const action = fault.action;
        if (action.kind === 'rpc-error' || action.kind === 'http-status') {
          if (plan.reply) continue;
          plan.reply = action;
        } else if (action.kind === 'latency') plan.delayMs += sampleLatency(action, random);
        else if (action.kind === 'drip') {
          if (plan.drip) continue;
          plan.drip = action;
        } else if (STREAM_KINDS.has(action.kind)) plan.stream.push(action as StreamFault);
        plan.names.push(faultLabel(fault, state.index));
      }
      return plan;
    },
  };
}
