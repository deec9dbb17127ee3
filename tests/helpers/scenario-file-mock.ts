import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCliMock, type Started } from './processes';

/** A scenario file served by `mcp-loupe mock --store memory` from a temporary directory of its own. */
export interface ScenarioFileMock {
  mock: Started;
  /** The scenario file's path. */
  scenario: string;
  /** A path in the temporary directory (for recordings, exports). */
  file(name: string): string;
  /** Stop the mock and remove the directory. */
  stop(): Promise<void>;
}

/** Write `yaml` to `<tmp>/<prefix>…/scenario.yaml` and serve it with the real CLI. */
export async function startScenarioFileMock(yaml: string, prefix: string): Promise<ScenarioFileMock> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const file = (name: string) => path.join(dir, name);
  const scenario = file('scenario.yaml');
  fs.writeFileSync(scenario, yaml);
  const mock = await startCliMock([scenario, '--store', 'memory']).catch((e: unknown) => {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  });
  return {
    mock,
    scenario,
    file,
    stop: async () => {
      await mock.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
