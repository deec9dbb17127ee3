import { ScenarioSchema, type Scenario, type ScenarioInput } from '../schema';
import { cancelResistantScenario } from './cancel-resistant';
import { conformanceScenario } from './conformance';
import { demoScenario } from './demo';
import { droppedListenScenario } from './dropped-listen';
import { flakyNetworkScenario } from './flaky-network';
import { legacyServerScenario } from './legacy-server';
import { oauthScenario } from './oauth';
import { slowApprovalsScenario } from './slow-approvals';

/** Built-in scenarios by id; each is validated once on first use. */
const INPUTS: Record<string, ScenarioInput> = {
  demo: demoScenario,
  conformance: conformanceScenario,
  'flaky-network': flakyNetworkScenario,
  'slow-approvals': slowApprovalsScenario,
  'cancel-resistant': cancelResistantScenario,
  'dropped-listen': droppedListenScenario,
  'legacy-server': legacyServerScenario,
  oauth: oauthScenario,
};

const cache = new Map<string, Scenario>();

/** Ids of the built-in scenarios. */
export function builtinScenarioIds(): string[] {
  return Object.keys(INPUTS);
}

/** The authored (pre-default) form of a built-in, for editors and `mcp-loupe scenarios show`. */
export function builtinScenarioInput(id: string): ScenarioInput | undefined {
  // The id comes from a URL path: `__proto__` or `toString` must not reach Object.prototype.
  return Object.hasOwn(INPUTS, id) ? INPUTS[id] : undefined;
}

/** A validated built-in scenario, or undefined. */
export function getBuiltinScenario(id: string): Scenario | undefined {
  const input = builtinScenarioInput(id);
  if (!input) return undefined;
  let s = cache.get(id);
  if (!s) {
    const parsed = ScenarioSchema.safeParse(input);
    if (!parsed.success)
      throw new Error(`Failed to load built-in scenario ${id}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    s = parsed.data;
    cache.set(id, s);
  }
  return s;
}
