import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startCliMock } from '../helpers/processes';

/**
 * The run line at the top of each example says where `mcp-loupe mock FILE` serves it. Someone
 * copies that line and then the path: it must be the URL the command prints (`/mcp`), and the
 * path it also names must carry the scenario's own id.
 */

const EXAMPLES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../examples');
/** Groups: the file, the path it serves at first, and the `/mcp/<id>` it names besides (if any). */
const SERVES = /npx mcp-loupe mock (examples\/\S+)\s+# serves (\/[^\s,]+)[^(]*(?:\(and (\/mcp\/[^)\s]+)\))?/;

const runLines = readdirSync(EXAMPLES)
  .filter((f) => /\.ya?ml$/.test(f))
  .flatMap((f) => {
    const text = readFileSync(path.join(EXAMPLES, f), 'utf8');
    const serves = /npx mcp-loupe mock examples\/\S+\s+# serves .*/.exec(text)?.[0];
    return serves ? [{ file: f, line: serves, id: /^id: (\S+)/m.exec(text)?.[1] }] : [];
  });

describe('examples/ run lines', () => {
  it('finds a run line that names a path', () => {
    expect(runLines.length).toBeGreaterThanOrEqual(5);
  });

  it.each(runLines)('$file: the path its comment names is the one mock prints', async ({ line, id }) => {
    const m = SERVES.exec(line);
    expect(m, `run line "${line}" names no path after "# serves"`).not.toBeNull();
    const mock = await startCliMock([m![1]!, '--store', 'memory']);
    try {
      expect(m![2], `the path in "${line}"`).toBe(new URL(mock.url).pathname);
      if (m![3]) expect(m![3]).toBe(`/mcp/${id}`);
    } finally {
      await mock.stop();
    }
  });
});
