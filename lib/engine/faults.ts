import type { Fault, FaultAction, FaultMatch } from '../scenario/fault-schema';
import type { FaultCounter, FaultStateStore } from '../store/types';

/**
 * Fault evaluation: which of a scenario's faults fire on a request, decided from per-fault
 * counters and seeded PRNGs only, so the same seed and the same request sequence give the same
 * faults on every run. Each fault draws from its own PRNG, so adding a fault does not change when
 * the others fire (for named faults). Applying the faults to the wire is http.ts's and fault-stream.ts's job.
 * A fleet keeps each fault's counter and PRNG state in its shared store instead (one locked step
 * per request that a fault matches), so `nth: 2` is the fleet's second matching request.
 */

/** Faults that answer in the server's place. */
export type ReplyFault = Extract<FaultAction, { kind: 'rpc-error' | 'http-status' }>;
/** Faults that damage an SSE stream. */
export type StreamFault = Extract<FaultAction, { kind: 'stall' | 'drop' | 'garbage' | 'duplicate' | 'out-of-order' }>;
/** A slow write of the response body. */
export type DripFault = Extract<FaultAction, { kind: 'drip' }>;
/** A fault of the instance that serves the request, lasting beyond it (instance-faults.ts). */
export type InstanceFault = Extract<FaultAction, { kind: 'instance-down' | 'instance-skew' }>;

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
  /** The first instance fault that fired. */
  instance?: InstanceFault;
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
interface FaultInjector<P = FaultPlan | undefined> {
  /** Count the request against every fault it matches; undefined when none fires. */
  plan(request: FaultRequest): P;
  /** Zero the counters and restart the PRNGs from the seed. */
  reset(): void | Promise<void>;
  /** The numeric seed in use. */
  readonly seed: number;
}

/** One step of mulberry32 on a state kept outside the closure (so a store can hold it): a float in [0, 1). */
function draw(state: FaultCounter): number {
  state.prng = (state.prng + 0x6d2b79f5) >>> 0;
  let t = state.prng;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** mulberry32: a small, fast 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  const state = { count: 0, prng: seed >>> 0 };
  return () => draw(state);
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

/** One fault with its match counter and its own PRNG's state. */
interface FaultState extends FaultCounter {
  fault: Fault;
  index: number;
  /** Its key in a shared store: its name, else its position. */
  key: string;
  /** The PRNG state it starts from. */
  initial: number;
}

function initialStates(faults: readonly Fault[], base: number): FaultState[] {
  // One stream per fault, keyed by its name (or position), so named faults keep their sequence when others are added.
  return faults.map((fault, index) => {
    const key = fault.name ?? `#${index}`;
    const initial = (base ^ fnv1a(key)) >>> 0;
    return { fault, index, key, initial, count: 0, prng: initial };
  });
}

/**
 * Count one request against `states` (their counters are `counters[i]`, or the states themselves)
 * and build the plan of those that fire.
 */
function decide(states: readonly FaultState[], counters: readonly FaultCounter[] | undefined, request: FaultRequest): FaultPlan | undefined {
  let plan: FaultPlan | undefined;
  for (let i = 0; i < states.length; i++) {
    const { fault, index } = states[i]!;
    const state = counters?.[i] ?? states[i]!;
    if (!matchesRequest(fault.match, request)) continue;
    state.count += 1;
    if (!countPasses(fault.match, state.count)) continue;
    if (fault.match.probability !== undefined && !(draw(state) < fault.match.probability)) continue;
    // Every firing draws the same count from its own PRNG, whichever fault seeds the plan.
    const sub = Math.floor(draw(state) * 4294967296);
    plan ??= { names: [], delayMs: 0, stream: [], random: mulberry32(sub) };
    const action = fault.action;
    if (action.kind === 'rpc-error' || action.kind === 'http-status') {
      if (plan.reply) continue;
      plan.reply = action;
    } else if (action.kind === 'latency') plan.delayMs += sampleLatency(action, () => draw(state));
    else if (action.kind === 'drip') {
      if (plan.drip) continue;
      plan.drip = action;
    } else if (action.kind === 'instance-down' || action.kind === 'instance-skew') {
      if (plan.instance) continue;
      plan.instance = action;
    } else if (STREAM_KINDS.has(action.kind)) plan.stream.push(action as StreamFault);
    plan.names.push(faultLabel(fault, index));
  }
  return plan;
}

/** Create the injector for a scenario's faults, its counters in this process. */
export function createFaultInjector(faults: readonly Fault[], seed: number | string): FaultInjector {
  const base = hashSeed(seed);
  let states = initialStates(faults, base);
  return {
    seed: base,
    reset() {
      states = initialStates(faults, base);
    },
    plan: (request) => decide(states, undefined, request),
  };
}

/**
 * Create the injector of a fleet: the counters and PRNG states of a scenario's faults live in the
 * shared store under `scope`. A request no fault matches is answered at once, without the store;
 * one that some fault matches steps those faults' counters in one atomic store step. A store that
 * fails leaves the request unfaulted rather than failing it.
 */
export function createSharedFaultInjector(
  faults: readonly Fault[],
  seed: number | string,
  store: FaultStateStore,
  scope: string,
  onError: (error: unknown) => void,
): FaultInjector<FaultPlan | undefined | Promise<FaultPlan | undefined>> {
  const base = hashSeed(seed);
  const states = initialStates(faults, base);
  return {
    seed: base,
    reset: () => store.clear(scope).then(() => undefined),
    plan(request) {
      const matching = states.filter((state) => matchesRequest(state.fault.match, request));
      if (matching.length === 0) return undefined;
      return store
        .step(
          scope,
          matching.map((state) => state.key),
          matching.map((state) => state.initial),
          (counters) => decide(matching, counters, request),
        )
        .catch((error: unknown) => {
          onError(error);
          return undefined;
        });
    },
  };
}
