import fs from 'node:fs';
import path from 'node:path';
import { fsReason } from '../shared/fs-reasons';
import type { MockHost } from '../server/mock-host';
import { reportCardToJUnit } from '../server/report-card-junit';
import { writeAtomic } from '../server/write-atomic';
import { UsageError } from './errors';

/**
 * `mcp-loupe mock --report FILE`: the client's report card when the mock stops, JUnit XML for a
 * .xml file, else JSON. The file is written at the end of a CI run, so whether it can be written
 * is checked at the start: an unwritable path found only at shutdown lost the whole run's grades.
 */

/** Whether `file` is a directory (false when it is anything else or cannot be reached). */
function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Refuse (exit 2) a --report path the mock could not write when it stops: a directory, or a path
 * whose directory (or, for directories still to be made, the nearest one that exists) is a file
 * or takes no new file. Writing is tried with a probe file, removed at once, since the mode bits
 * do not tell (root writes anywhere by mode, yet no file can be made in /proc).
 */
export function checkReportTarget(given: string): void {
  const file = path.resolve(given);
  if (isDirectory(file)) throw new UsageError(`--report ${given} is a directory: give a file path like ${path.join(given, 'report.xml')}`);
  let dir = path.dirname(file);
  while (!fs.existsSync(dir)) dir = path.dirname(dir);
  if (!fs.statSync(dir).isDirectory()) throw new UsageError(`--report ${given}: ${dir} is a file, not a directory; give a path in a directory`);
  const probe = path.join(dir, `.mcp-loupe-report-probe.${process.pid}`);
  try {
    fs.closeSync(fs.openSync(probe, 'wx', 0o600));
  } catch (error) {
    throw new UsageError(`--report ${given}: cannot create a file in ${dir} (${fsReason(error)}); give a path in a directory you can write`);
  }
  fs.rmSync(probe, { force: true });
}

/** Write the report card of `scenarioId` to `file` (on a shared store, the whole fleet's traffic); a failure sets exit code 1. */
export async function writeReport(file: string | undefined, mockHost: MockHost, scenarioId: string): Promise<void> {
  const engine = file ? mockHost.engine(scenarioId) : undefined;
  if (!file || !engine) return;
  const target = path.resolve(file);
  try {
    const card = await engine.fleetReportCard();
    writeAtomic(target, target.endsWith('.xml') ? reportCardToJUnit(card, scenarioId) : `${JSON.stringify(card, null, 2)}\n`);
    // A card that graded nothing is no pass: say so where the person running CI looks.
    if (card.warning) process.stderr.write(`mcp-loupe: --report: ${card.warning}\n`);
  } catch (e) {
    process.stderr.write(`mcp-loupe: --report: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
