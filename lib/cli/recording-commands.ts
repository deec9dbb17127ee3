import path from 'node:path';
import type { Command } from 'commander';
import { listen } from '../adapters/node-http';
import { createReplayServerHandler } from '../server/replay-server';
import { writeAtomic } from '../server/write-atomic';
import { toHar } from '../recording/har-export';
import { openRecordingText, type OpenedFile } from '../recording/open';
import { redactRecording, type ReviewItem } from '../recording/redact';
import { nothingToReplaceText } from '../recording/review-text';
import { SECRET_KINDS, type SecretKind } from '../recording/secrets';
import { recordingToScenarioYaml } from '../recording/to-scenario';
import { serializeRecording, type Recording } from '../recording/schema';
import { parseScenario } from '../scenario/loader';
import { readTextUpTo } from '../scenario/files';
import { UsageError } from './errors';
import { listenFailure, parsePort, warnBlockedPort } from './network';

/**
 * `mcp-loupe export FILE --out OUT [--har | --scenario] [--no-redact] [--keep KIND...]` and
 * `mcp-loupe replay RECORDING [--port N] [--host H]`. FILE may be a recording of any version
 * or a HAR (Loupe's or a browser's). Exports are redacted unless --no-redact.
 */

/** Largest recording file read: V8's longest string is just under 512 Mi characters. */
const MAX_RECORDING_FILE_BYTES = 512 * 1024 * 1024 - 64;

/** The file named on the command line cannot be used: a usage mistake (exit 2). */
function fail(message: string): never {
  throw new UsageError(message);
}

/** Read and open a recording file, or exit with why it cannot be opened. */
function openFileOrExit(file: string): Extract<OpenedFile, { ok: true }> {
  let text: string | undefined;
  try {
    text = readTextUpTo(path.resolve(file), MAX_RECORDING_FILE_BYTES);
  } catch (e) {
    fail((e as NodeJS.ErrnoException).code === 'ENOENT' ? `${file}: no such file` : `Cannot read ${file}: ${(e as Error).message}`);
  }
  if (text === undefined) fail(`Cannot read ${file}: it is over ${MAX_RECORDING_FILE_BYTES / 1024 / 1024} MiB, more than one string can hold`);
  const opened = openRecordingText(text, file);
  if (!opened.ok) fail(opened.error);
  return opened;
}

/** One line per kind of secret, as the review screen lists them. */
function formatReview(items: ReviewItem[], source: Recording): string {
  if (!items.length) return nothingToReplaceText(source);
  return items
    .map(
      (i) =>
        `${i.redacted ? 'replaced' : 'KEPT    '} ${String(i.distinct).padStart(3)} × ${i.label}: ${i.occurrences} place(s); e.g. ${i.examples.map((e) => `${e.masked} → ${i.redacted ? e.pseudonym : '(kept)'}`).join(', ')}`,
    )
    .join('\n');
}

interface ExportFlags {
  out: string;
  har?: boolean;
  scenario?: boolean;
  redact: boolean;
  keep?: string[];
  id?: string;
}

/**
 * The recording as scenario YAML, with what was changed to fit the format on stderr. The text is
 * validated as `mcp-loupe validate` would: a file the validator rejects is never written.
 */
function scenarioText(recording: Recording, id: string | undefined): string {
  const notes: string[] = [];
  const text = recordingToScenarioYaml(recording, { ...(id ? { id } : {}), notes });
  for (const n of notes) process.stderr.write(`scenario: ${n}\n`);
  const parsed = parseScenario(text, 'the converted scenario');
  if (!parsed.ok) {
    const why = parsed.errors.map((e) => `  ${e.path}: ${e.message}`).join('\n');
    throw new Error(`The recording converts to a scenario that does not validate, so nothing was written:\n${why}\nPlease report this with the recording.`);
  }
  return text;
}

function runExport(file: string, flags: ExportFlags): void {
  if (flags.har && flags.scenario) fail('Choose one of --har and --scenario');
  const keep = (flags.keep ?? []) as SecretKind[];
  const unknown = keep.filter((k) => !(SECRET_KINDS as readonly string[]).includes(k));
  if (unknown.length) fail(`--keep: unknown kind ${unknown.join(', ')} (kinds: ${SECRET_KINDS.join(', ')})`);
  const opened = openFileOrExit(file);
  let recording = opened.recording;
  if (opened.source === 'har' && opened.har)
    process.stderr.write(`Imported ${opened.har.imported} MCP exchanges from the HAR (${opened.har.skipped} other entries skipped).\n`);
  if (flags.redact) {
    const redacted = redactRecording(recording, { keep });
    process.stderr.write(`What will be published:\n${formatReview(redacted.items, recording)}\n`);
    recording = redacted.recording;
  } else process.stderr.write('warning: --no-redact: the export keeps every Authorization value, cookie, token and task id as recorded.\n');
  const text = flags.har
    ? `${JSON.stringify(toHar(recording), null, 2)}\n`
    : flags.scenario
      ? scenarioText(recording, flags.id)
      : `${serializeRecording(recording)}\n`;
  if (flags.out === '-') process.stdout.write(text);
  else writeAtomic(path.resolve(flags.out), text);
  const what = flags.har ? 'HAR 1.2' : flags.scenario ? 'scenario' : `recording (format ${recording.version})`;
  process.stderr.write(
    `Wrote ${what} with ${recording.frames.length} frames${flags.redact ? ', redacted,' : ''} to ${flags.out === '-' ? 'stdout' : flags.out}\n`,
  );
}

interface ReplayFlags {
  port: string;
  host: string;
  allowRemote?: boolean;
  allowedHost?: string[];
  quiet?: boolean;
  loose?: boolean;
}

async function runReplay(file: string, flags: ReplayFlags): Promise<void> {
  const started = performance.now();
  const port = parsePort(flags.port);
  const host = flags.host;
  if ((host === '0.0.0.0' || host === '::') && !flags.allowRemote)
    fail(`Refusing to bind ${host}: that exposes the replay to the network. Pass --allow-remote if you mean it.`);
  const opened = openFileOrExit(file);
  const handler = createReplayServerHandler(opened.recording, {
    allowedHosts: flags.allowedHost,
    loose: !!flags.loose,
    onServe: (s) => {
      if (s.match === 'unmatched') process.stderr.write(`replay: ${s.method} is not in the recording; answered with an error naming it\n`);
      else if (!flags.quiet && s.match === 'sequential')
        process.stderr.write(`replay: ${s.method} params differ from every recording; served the next recorded answer in order\n`);
    },
  });
  if (!handler.exchanges) fail(`${file} holds no request to replay`);
  const server = await listen(handler.fetch, host, port).catch((e: unknown) => {
    throw listenFailure(e, host, port);
  });
  const shown = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown}:${server.port}/mcp`;
  process.stdout.write(`mcp-loupe replay: ${handler.exchanges} recorded exchanges from ${file} at ${url}\n`);
  warnBlockedPort('replay', server.port);
  process.stdout.write(`READY ${url} (${Math.round(performance.now() - started)} ms)\n`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

/** Register `export` and `replay`. */
export function registerRecordingCommands(program: Command): void {
  program
    .command('export')
    .description('write a recording (or a HAR) redacted: as a recording, HAR 1.2 (--har) or a scenario (--scenario)')
    .argument('<file>', 'a Loupe recording (any version) or a HAR file')
    .requiredOption('--out <file>', 'where to write ("-" for stdout)')
    .option('--har', 'write HAR 1.2')
    .option('--scenario', 'write an editable scenario (YAML) inferred from the recording')
    .option('--id <id>', 'with --scenario: the scenario id')
    .option('--no-redact', 'keep secrets (Authorization, cookies, tokens, task ids) as recorded')
    .option('--keep <kind...>', `redact, but keep these kinds: ${SECRET_KINDS.join(', ')}`)
    .action((file: string, flags: ExportFlags) => runExport(file, flags));
  program
    .command('replay')
    .description('serve a recording (or a HAR) as a mock: answers matched on method and params')
    .argument('<recording>')
    .option('--port <n>', 'port (0 = any free port)', '3002')
    .option('--host <h>', 'interface to bind', '127.0.0.1')
    .option('--allow-remote', 'allow binding a non-loopback interface')
    .option('--allowed-host <name...>', 'extra Host names to accept besides loopback')
    .option('--loose', 'answer a request the recording does not hold with the next recorded answer of its method (default: a JSON-RPC error naming it)')
    .option('--quiet', 'do not log requests served out of order')
    .action((file: string, flags: ReplayFlags) => runReplay(file, flags));
}
