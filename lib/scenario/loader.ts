import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import { formatIssues, formatPath, sortIssues, type ScenarioIssue } from './issues';
import { checkScenarioRules } from './rules';
import { ScenarioSchema, type Scenario } from './schema';
import { collectionKeyIssues, yamlSyntaxIssues } from './yaml-issues';
import { tagIssues } from './yaml-tags';
import { createLocator, type Locator } from './yaml-locator';
import { scenarioErrorMap, toScenarioIssues } from './zod-issues';

/**
 * Parses scenario text (YAML or JSON) into a validated {@link Scenario}, or into every problem
 * found, each with the line and column where it is written. Pure TypeScript: the browser
 * control room validates with it while the author types.
 */

export { formatIssues, type ScenarioIssue };

/** The outcome of parsing a scenario: the scenario and its warnings, or all of its errors. */
export type ScenarioParse = { ok: true; scenario: Scenario; warnings: ScenarioIssue[] } | { ok: false; errors: ScenarioIssue[] };

/** The contents of a file a resource names with `file:`, or why it could not be read. */
export type FileRead = { ok: true; text: string } | { ok: false; message: string };

/** Options of {@link parseScenario}. */
interface ParseScenarioOptions {
  /**
   * Reads a resource's `file:` (as written in the scenario) into its `text`. Hosts with a file
   * system supply it (see `loadScenarioFile`); without it `file:` entries are left as they are.
   */
  readResourceFile?: (file: string) => FileRead;
}

/** Cap on alias expansion, so a small file cannot expand into a huge object ("billion laughs"). */
const MAX_ALIAS_COUNT = 100;

/** Deepest bracket nesting accepted; deeper documents would exhaust the parser's stack. */
const MAX_NESTING = 256;

const TOO_DEEP_FOR_PARSER = `The document is nested too deep for the YAML parser (more than ${MAX_NESTING} levels); scenarios never need that`;

/** Offset where flow-collection nesting first exceeds {@link MAX_NESTING}, ignoring brackets in strings. */
function tooDeepAt(text: string): number | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') {
      if (++depth > MAX_NESTING) return i;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
  return undefined;
}

/**
 * Parses and validates a scenario. `source` names the text in issues (usually its file name).
 * Text starting with `{` is read as JSON, anything else as YAML; both go through the YAML
 * parser because JSON is YAML and its node tree gives positions for every value.
 */
export function parseScenario(text: string, source: string, options: ParseScenarioOptions = {}): ScenarioParse {
  const lineCounter = new LineCounter();
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    const before = text.slice(0, deep);
    const line = before.split('\n').length;
    const column = deep - before.lastIndexOf('\n');
    return {
      ok: false,
      errors: [{ source, line, column, path: '', message: `The document is nested more than ${MAX_NESTING} levels deep; scenarios never need that` }],
    };
  }
  // A `.json` file is JSON whatever it starts with, so its errors are JSON's, not YAML's.
  const json = /\.json$/i.test(source) || /^\s*\{/.test(text);
  // The json schema refuses unquoted scalars, so `{"id": x}` is an error rather than a string.
  // YAML merge keys (`<<: *base`) are YAML 1.1, off by default in the yaml package; toJS's alias
  // cap below still bounds what they expand to.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, schema: json ? 'json' : 'core', uniqueKeys: true, merge: !json });
  // Block nesting has no brackets for tooDeepAt to count: past ~900 levels the parser's own stack
  // overflows, and it reports that as the error's message (the errors after it are its echoes).
  const overflow = doc.errors.find((e) => e.message.includes('Maximum call stack size exceeded'));
  const locator = createLocator(doc, lineCounter);
  if (overflow) return { ok: false, errors: [{ source, ...locator.position(overflow.pos[0]), path: '', message: TOO_DEEP_FOR_PARSER }] };
  const fromYaml = (error: YAMLError): ScenarioIssue => ({ source, ...locator.position(error.pos[0]), path: '', message: error.message });
  const yamlWarnings = doc.warnings.map(fromYaml);
  if (doc.errors.length > 0) {
    const plainer = json ? jsonSyntaxIssue(text, source, locator) : undefined;
    return { ok: false, errors: plainer ? [plainer] : yamlSyntaxIssues(doc.errors, text, source, locator) };
  }
  // YAML's flow style takes what JSON does not (a trailing comma, a comment): a `.json` file that
  // other JSON tools would refuse is refused here too, with JSON's words.
  const strict = /\.json$/i.test(source) ? jsonSyntaxIssue(text, source, locator) : undefined;
  if (strict) return { ok: false, errors: [strict] };
  const badKeys = collectionKeyIssues(doc, source, locator);
  if (badKeys.length > 0) return { ok: false, errors: badKeys };
  // Before toJS: a tag that is not a JSON type would come out as a Buffer, a Set or a Map.
  const badTags = tagIssues(doc, text, source, locator);
  if (badTags.length > 0) return { ok: false, errors: badTags };

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    return { ok: false, errors: [{ source, line: 1, column: 1, path: '', message: `Cannot read the document: ${reasonOf(error)}` }] };
  }

  const issueAt = (path: PropertyKey[], message: string): ScenarioIssue => ({
    source,
    ...locator.locate(path),
    path: formatPath(path),
    message,
  });
  const parsed = ScenarioSchema.safeParse(data, { error: scenarioErrorMap });
  const rules = checkScenarioRules(data, issueAt);
  const errors = parsed.success ? [...rules.errors] : [...toScenarioIssues(parsed.error.issues, data, locator, source), ...rules.errors];
  if (parsed.success && options.readResourceFile) {
    errors.push(...readResourceFiles(parsed.data, options.readResourceFile, issueAt));
  }
  if (!parsed.success || errors.length > 0) return { ok: false, errors: sortIssues(errors) };
  return { ok: true, scenario: parsed.data, warnings: sortIssues([...yamlWarnings, ...rules.warnings]) };
}

/** Fills `text` of every resource that names a `file:`; unreadable files become issues. */
function readResourceFiles(
  scenario: Scenario,
  read: (file: string) => FileRead,
  issueAt: (path: PropertyKey[], message: string) => ScenarioIssue,
): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  scenario.resources.forEach((resource, index) => {
    if (resource.file === undefined) return;
    if (resource.text !== undefined || resource.blob !== undefined) {
      issues.push(issueAt(['resources', index, 'file'], 'Give a resource either file or text/blob, not both'));
      return;
    }
    const loaded = read(resource.file);
    if (loaded.ok) resource.text = loaded.text;
    else issues.push(issueAt(['resources', index, 'file'], loaded.message));
  });
  return issues;
}

/**
 * For broken JSON, JSON.parse's own message ("Expected ',' or '}' after property value") is
 * plainer than the YAML parser's reading of the same text, when the engine tells the position
 * (V8: "at position N", Firefox: "at line L column C"); otherwise the YAML errors stand.
 */
function jsonSyntaxIssue(text: string, source: string, locator: Locator): ScenarioIssue | undefined {
  try {
    JSON.parse(text);
    return undefined; // valid JSON the YAML parser refused, e.g. a duplicate key: keep its errors
  } catch (error) {
    const message = reasonOf(error);
    const offset = /at position (\d+)/.exec(message);
    const lineColumn = /at line (\d+) column (\d+)/.exec(message);
    // V8 names no position when the text ends early ("Unexpected end of JSON input"): the end is where.
    const end = CUT_SHORT.test(message) ? locator.position(text.trimEnd().length) : undefined;
    // Node 20's V8 says `Unexpected token '}', ..."tools": [}" is not valid JSON`: no position.
    const token = /^Unexpected token .*is not valid JSON$/s.test(message) ? locator.position(viablePrefixLength(text)) : undefined;
    const at = offset ? locator.position(Number(offset[1])) : lineColumn ? { line: Number(lineColumn[1]), column: Number(lineColumn[2]) } : (end ?? token);
    if (!at) return undefined;
    const plain = message
      .replace(/^JSON\.parse: /, '')
      .replace(/ (in JSON )?at (position|line) .*$/, '')
      .replace(/, (\.\.\.)?".*" is not valid JSON$/s, '');
    return { source, ...at, path: '', message: `Invalid JSON: ${plain.charAt(0).toLowerCase()}${plain.slice(1)}` };
  }
}

const CUT_SHORT = /end of (JSON )?(input|data)/i;

/**
 * The length of the longest prefix of `text` that JSON.parse reads as whole or merely cut short:
 * the character after it is the one it refused (V8 names no position for it on Node 20). Longer prefixes of a refused one stay refused,
 * so a binary search finds it in a few dozen parses.
 */
function viablePrefixLength(text: string): number {
  const viable = (n: number) => {
    try {
      JSON.parse(text.slice(0, n));
      return true;
    } catch (error) {
      // Cut short: "Unexpected end of JSON input", or a complaint about the position just past the end.
      const message = reasonOf(error);
      const at = /at position (\d+)/.exec(message);
      return CUT_SHORT.test(message) || (at !== null && Number(at[1]) >= n);
    }
  };
  let lo = 0;
  let hi = text.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (viable(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
