import fs from 'node:fs';
import path from 'node:path';
import { loadScenarioFile } from '../scenario/files';
import { formatIssues } from '../scenario/loader';
import { UsageError } from './errors';

/** `mcp-loupe validate FILE`: exit 0 when valid, 1 with every error and its line otherwise (2: no such file). */
export function runValidateCommand(file: string): void {
  if (!fs.existsSync(path.resolve(file))) throw new UsageError(`${file}: no such file`);
  const parsed = loadScenarioFile(path.resolve(file));
  if (!parsed.ok) {
    process.stderr.write(`${formatIssues(parsed.errors)}\n`);
    process.stderr.write(`${parsed.errors.length} error(s) in ${file}\n`);
    // Not process.exit: on a pipe, stderr is written asynchronously, and exiting now cut the list
    // after the first 64 KB (the count line lost). The process ends by itself once it is written.
    process.exitCode = 1;
    return;
  }
  if (parsed.warnings.length) process.stderr.write(`${formatIssues(parsed.warnings)}\n`);
  const tools = parsed.scenario.tools.length;
  process.stdout.write(`${file}: valid scenario "${parsed.scenario.id}" (${tools} ${tools === 1 ? 'tool' : 'tools'})\n`);
}
