/**
 * Problems found in a scenario file, each tied to a 1-based line and column, and their
 * one-line text form (`demo.yaml:12:5 tools[2].task.steps: Expected array, received string`),
 * which the CLI prints and editors can turn into clickable locations.
 */

/** One problem in a scenario file. `path` is the field in `a.b[2].c` form ('' for the whole file). */
export type ScenarioIssue = { source: string; line: number; column: number; path: string; message: string };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Formats a data path as `a.b[2].c`. Keys that are not plain identifiers (extension names such
 * as `io.modelcontextprotocol/ui`) are quoted so the dots inside them cannot be misread.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const key = String(segment);
      if (IDENTIFIER.test(key)) out += out === '' ? key : `.${key}`;
      else out += `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

/** Orders issues by line, then column; issues at the same place keep their order. */
export function sortIssues(issues: readonly ScenarioIssue[]): ScenarioIssue[] {
  return issues
    .map((issue, index) => ({ issue, index }))
    .sort((a, b) => a.issue.line - b.issue.line || a.issue.column - b.issue.column || a.index - b.index)
    .map(({ issue }) => issue);
}

/** One line per issue: `source:line:column path: message` (the path part is left out when empty). */
export function formatIssues(issues: readonly ScenarioIssue[]): string {
  return issues
    .map((issue) => {
      const where = `${issue.source}:${issue.line}:${issue.column}`;
      return issue.path === '' ? `${where} ${issue.message}` : `${where} ${issue.path}: ${issue.message}`;
    })
    .join('\n');
}
