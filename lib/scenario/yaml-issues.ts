import { isCollection, visit, type Document, type YAMLError } from 'yaml';
import type { ScenarioIssue } from './issues';
import type { Locator } from './yaml-locator';

/**
 * YAML problems as an author needs them. After one syntax error the parser loses its place and
 * reports every token that follows (one unquoted `{{` in a flow mapping gave dozens of errors),
 * so only the errors up to the first syntax error are shown. The commonest cause, a `{{...}}`
 * placeholder left unquoted, is named outright, also where YAML silently reads it as a mapping.
 */

/** Errors that stand on their own; every other code is a syntax error the parser may cascade from. */
const INDEPENDENT = new Set(['DUPLICATE_KEY', 'BAD_ALIAS', 'TAG_RESOLVE_FAILED']);

const PLACEHOLDER_HINT = 'an unquoted {{...}} placeholder is read as a YAML mapping; quote the value, e.g. text: "Chart of {{args.series}}"';

/** The YAML errors worth showing: those before the first syntax error, and that error itself. */
export function yamlSyntaxIssues(errors: readonly YAMLError[], text: string, source: string, locator: Locator): ScenarioIssue[] {
  const sorted = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  const firstSyntax = sorted.findIndex((e) => !INDEPENDENT.has(e.code));
  const shown = firstSyntax < 0 ? sorted : sorted.slice(0, firstSyntax + 1);
  const hidden = sorted.length - shown.length;
  return shown.map((error, index) => {
    const at = locator.position(error.pos[0]);
    let message = firstLine(error.message);
    if (index === firstSyntax) {
      if (hasUnquotedPlaceholder(lineAt(text, at.line))) message = `${message}: ${PLACEHOLDER_HINT}`;
      if (hidden > 0) message = `${message} (the ${hidden} error${hidden === 1 ? '' : 's'} after it probably follow from it: fix it and validate again)`;
    }
    return { source, ...at, path: '', message };
  });
}

/**
 * Mapping keys that are themselves mappings or sequences. Scenario keys are always plain
 * names, so such a key is a mistake, nearly always `key: {{args.x}}` without quotes.
 */
export function collectionKeyIssues(doc: Document, source: string, locator: Locator): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  visit(doc, {
    Pair(_, pair) {
      if (!isCollection(pair.key)) return;
      const at = locator.position(pair.key.range?.[0] ?? 0);
      issues.push({ source, ...at, path: '', message: `A mapping is used as a key: ${PLACEHOLDER_HINT}` });
    },
  });
  return issues;
}

/** The yaml library appends the offending source and a caret on further lines; the position says as much. */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}

function lineAt(text: string, line: number): string {
  return text.split('\n')[line - 1] ?? '';
}

/** Whether `{{` appears outside quoted strings on this line. */
function hasUnquotedPlaceholder(line: string): boolean {
  return line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'/g, '').includes('{{');
}
