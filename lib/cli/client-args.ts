import { LEGACY_VERSIONS, LoggingLevelSchema, type LoggingLevel, type Tool } from '../protocol';
import type { InputStubs } from '../client/headless';
import type { Era } from '../client/request-builder';
import { UsageError } from './errors';

/**
 * Parsing of the client commands' flags: `--header "Name: value"`, `key=value` tool
 * arguments coerced by the tool's input schema, JSON flags and the stub answers.
 */

/** Common options of every client command. */
export interface ConnectionFlags {
  url?: string;
  header?: string[];
  json?: boolean;
  protocolVersion?: string;
  era?: string;
  timeout?: string;
  elicitStub?: string;
  samplingStub?: string;
  rootsStub?: string;
  /** `--record FILE`, or `true` for a bare `--record` (autosave). */
  record?: string | boolean;
  /** `--elicit-url accept|decline|cancel`: answer URL-mode elicitations so. */
  elicitUrl?: string;
  /** `--log-level LEVEL`: logs asked for on each request, printed on stderr. */
  logLevel?: string;
  /** `--no-redact` (false): the --record file keeps secrets as sent. */
  redact?: boolean;
  revealIds?: boolean;
  listen?: boolean;
  /** Authorization (client-auth.ts). */
  auth?: boolean;
  clientId?: string;
  clientSecret?: string;
  scope?: string;
  token?: string;
  /** `--store-tokens FILE`: keep the OAuth tokens there between runs. */
  storeTokens?: string;
  /** `--client-metadata-url URL`: the client's Client ID Metadata Document, used where the server supports CIMD. */
  clientMetadataUrl?: string;
}

/** The stdio server's command line: every word after the first `--` (empty when there is none). */
export function stdioTarget(argv: readonly string[] = process.argv): string[] {
  const i = argv.indexOf('--');
  return i < 0 ? [] : argv.slice(i + 1);
}

/**
 * A command's own words without the stdio command line commander appended to them, nor the `--`
 * it keeps before that line once it let an unknown word through (a task id beginning with "-").
 */
export function ownWords(words: string[], argv: readonly string[] = process.argv): string[] {
  const tail = stdioTarget(argv);
  const own = tail.length && words.slice(-tail.length).join('\0') === tail.join('\0') ? words.slice(0, words.length - tail.length) : words;
  return argv.includes('--') && own.at(-1) === '--' ? own.slice(0, -1) : own;
}

/** Parse `Name: value` header flags. */
export function parseHeaders(flags: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of flags) {
    const i = h.indexOf(':');
    if (i <= 0) throw new UsageError(`--header "${h}" must look like "Name: value"`);
    const name = h.slice(0, i).trim();
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new UsageError(`--header "${h}": "${name}" is not a valid header name`);
    out[name] = h.slice(i + 1).trim();
  }
  return out;
}

/** Parse a JSON flag value, naming the flag in the error. */
export function parseJsonFlag(flag: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${flag} is not valid JSON: ${(e as Error).message}`);
  }
}

/** The era from --era, else from --protocol-version (a 2025 version means the handshake era). */
export function eraOf(flags: ConnectionFlags): Era | 'auto' {
  if (flags.era) {
    if (flags.era !== 'modern' && flags.era !== 'legacy' && flags.era !== 'auto')
      throw new UsageError(`--era must be modern, legacy or auto, not "${flags.era}"`);
    return flags.era;
  }
  if (flags.protocolVersion && (LEGACY_VERSIONS as readonly string[]).includes(flags.protocolVersion)) return 'legacy';
  return flags.protocolVersion ? 'modern' : 'auto';
}

/** --timeout in ms (default 60 s). */
export function timeoutOf(flags: ConnectionFlags): number {
  if (flags.timeout === undefined) return 60_000;
  const n = Number(flags.timeout);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--timeout must be a positive number of milliseconds, not "${flags.timeout}"`);
  return n;
}

/** The stub answers given on the command line. */
export function stubsOf(flags: ConnectionFlags): InputStubs {
  const elicit = parseJsonFlag('--elicit-stub', flags.elicitStub);
  if (elicit !== undefined && (typeof elicit !== 'object' || elicit === null || Array.isArray(elicit)))
    throw new UsageError('--elicit-stub must be a JSON object (the form content, or {"action":...})');
  const sampling =
    flags.samplingStub === undefined
      ? undefined
      : (() => {
          try {
            const v = JSON.parse(flags.samplingStub);
            return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : String(v);
          } catch {
            return flags.samplingStub;
          }
        })();
  const roots = parseJsonFlag('--roots-stub', flags.rootsStub);
  if (roots !== undefined && !Array.isArray(roots)) throw new UsageError('--roots-stub must be a JSON array of {"uri":"file:///..."}');
  const elicitUrl = flags.elicitUrl;
  if (elicitUrl !== undefined && elicitUrl !== 'accept' && elicitUrl !== 'decline' && elicitUrl !== 'cancel')
    throw new UsageError(`--elicit-url must be accept, decline or cancel, not "${elicitUrl}"`);
  return {
    ...(elicit ? { elicit: elicit as Record<string, unknown> } : {}),
    ...(elicitUrl ? { elicitUrl } : {}),
    ...(sampling !== undefined ? { sampling } : {}),
    ...(roots ? { roots: roots as { uri: string }[] } : {}),
  };
}

/** Convert one `key=value` text by the property's schema type. */
function coerce(key: string, text: string, schema: Record<string, unknown> | undefined): unknown {
  const type = schema?.type;
  if (type === 'integer' || type === 'number') {
    const n = Number(text);
    if (text.trim() === '' || Number.isNaN(n) || (type === 'integer' && !Number.isInteger(n)))
      throw new UsageError(`${key}=${text}: expected ${type === 'integer' ? 'an integer' : 'a number'}`);
    return n;
  }
  if (type === 'boolean') {
    if (text !== 'true' && text !== 'false') throw new UsageError(`${key}=${text}: expected true or false`);
    return text === 'true';
  }
  if (type === 'string') return text;
  if (type === 'object' || type === 'array' || type === 'null') return parseJsonFlag(`${key}=`, text);
  // No schema for it: JSON when it parses as a number, boolean, null, object or array; else text.
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Tool arguments from `key=value` words and/or `--args JSON` (the JSON wins on conflicts). */
export function toolArguments(words: string[], argsJson: string | undefined, tool: Tool | undefined): Record<string, unknown> {
  const props = (tool?.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  // Prototype-free, so `__proto__` (a key a server developer may well test with) is an argument
  // like any other: on a plain object, assigning it set the object's prototype and it was never sent.
  const out: Record<string, unknown> = Object.create(null);
  for (const w of words) {
    const i = w.indexOf('=');
    if (i <= 0) throw new UsageError(`argument "${w}" must look like key=value`);
    const key = w.slice(0, i);
    out[key] = coerce(key, w.slice(i + 1), Object.hasOwn(props, key) ? props[key] : undefined);
  }
  const json = parseJsonFlag('--args', argsJson);
  if (json !== undefined) {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UsageError('--args must be a JSON object');
    Object.assign(out, json);
  }
  return out;
}

/** The --log-level, checked against the syslog levels MCP uses. */
export function logLevelOf(flags: ConnectionFlags): LoggingLevel | undefined {
  if (flags.logLevel === undefined) return undefined;
  const level = LoggingLevelSchema.safeParse(flags.logLevel);
  if (!level.success) throw new UsageError(`--log-level must be one of ${LoggingLevelSchema.options.join(', ')}, not "${flags.logLevel}"`);
  return level.data;
}
