/**
 * `mcp-loupe/engine`: the mock engine as a library. Serve a built-in or your own scenario
 * through a web fetch handler, in any runtime with web streams and WebCrypto.
 */
import { createMockEngine, type MockEngine, type MockEngineOptions } from './engine';
import { getBuiltinScenario, builtinScenarioIds } from '../scenario/builtins';
import { ScenarioSchema, type Scenario, type ScenarioInput } from '../scenario/schema';
import { createServerClock } from './runtime';

export { createMockEngine, getBuiltinScenario, builtinScenarioIds, ScenarioSchema };
export type { MockEngine, MockEngineOptions, Scenario, ScenarioInput };
export { createMemoryStores } from '../store/memory';
export { createServerClock, createRandomIds, type Clock, type IdSource } from './runtime';
export { gradeClient, GRADE_IDS, ReportCardSchema, type ReportCard, type Grade, type GradeStatus } from './report-card';
export type { Journal, JournalEntry, JournalFrame, JournalEvent } from './journal';
export type { StreamEnd } from './exchange-tap';
export type { EngineEvent } from './engine';
export type { ControlAction } from './task-control';
export type { Stores, TaskStore, MutationLedger, ReplayStore, TaskRecord } from '../store/types';

/** @deprecated Use {@link createServerClock}, the same clock (real time, unref'd timers) under a name that says so. */
export const createSystemClock = createServerClock;

/** Validate a scenario object (with defaults applied); throws with every problem listed. */
export function defineScenario(input: ScenarioInput): Scenario {
  const parsed = ScenarioSchema.safeParse(input);
  if (!parsed.success)
    throw new Error(`Failed to load scenario: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** A fetch handler for a built-in scenario id or a scenario object. */
export function createScenarioHandler(scenario: string | ScenarioInput | Scenario, options: Omit<MockEngineOptions, 'scenario'> = {}): MockEngine {
  const s = typeof scenario === 'string' ? getBuiltinScenario(scenario) : defineScenario(scenario);
  if (!s) throw new Error(`Failed to load scenario: no built-in scenario "${String(scenario)}"`);
  return createMockEngine({ ...options, scenario: s });
}
