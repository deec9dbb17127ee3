import { LEGACY_VERSION, LEGACY_VERSIONS } from '../protocol';
import type { Scenario } from '../scenario/schema';

/**
 * The protocol versions a scenario's mock really serves, for `server/discover`'s
 * `supportedVersions` and `-32022`'s `data.supported`. A client picks its version from these
 * lists, so they must name every version the mock answers and none it refuses: the 2026-07-28-era
 * versions the scenario lists (the modern checks accept exactly those), then, while
 * `settings.legacy` is on, 2025-11-25, whose `initialize` and sessions are served whether or not
 * the scenario listed it. A legacy version listed while `settings.legacy` is off is refused, so it
 * is left out.
 */

interface Versions {
  /** Versions a request's `_meta` may claim (2026-07-28 era). */
  modern: readonly string[];
  /** Everything served, newest era first. */
  served: readonly string[];
}

const isLegacy = (v: string) => (LEGACY_VERSIONS as readonly string[]).includes(v);
// A scenario's versions do not change while it is served: worked out once per scenario object.
const known = new WeakMap<Scenario, Versions>();

/** What `scenario` serves (see above). */
export function versionsOf(scenario: Scenario): Versions {
  let v = known.get(scenario);
  if (!v) {
    const modern = scenario.supportedVersions.filter((x) => !isLegacy(x));
    const legacy = scenario.settings.legacy ? [LEGACY_VERSION, ...scenario.supportedVersions.filter((x) => isLegacy(x) && x !== LEGACY_VERSION)] : [];
    v = { modern, served: [...new Set([...modern, ...legacy])] };
    known.set(scenario, v);
  }
  return v;
}
