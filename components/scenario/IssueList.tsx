'use client';

import type { ScenarioIssue } from '@/lib/scenario/loader';
import { keyedByContent } from '@/components/ui/content-keys';

/** Validation problems under the editor; choosing one moves the cursor to its line. */
export function IssueList({
  errors,
  warnings,
  onPick,
}: {
  errors: ScenarioIssue[];
  warnings: ScenarioIssue[];
  onPick: (line: number, column: number) => void;
}) {
  if (errors.length === 0 && warnings.length === 0) {
    return (
      <p data-testid="editor-valid" className="text-xs text-success">
        Valid scenario
      </p>
    );
  }
  const rows = [...errors.map((i) => ({ issue: i, severity: 'error' as const })), ...warnings.map((i) => ({ issue: i, severity: 'warning' as const }))];
  return (
    <ul data-testid="editor-issues" aria-label="Validation issues" className="max-h-40 space-y-1 overflow-y-auto text-xs">
      {keyedByContent(rows, ({ issue, severity }) => `${severity}-${issue.line}-${issue.column}-${issue.message}`).map(({ key, item: { issue, severity } }) => (
        <li key={key} data-testid="editor-issue" data-line={issue.line} data-severity={severity}>
          <button
            type="button"
            onClick={() => onPick(issue.line, issue.column)}
            className={`w-full rounded px-2 py-1 text-left font-mono hover:bg-surface-muted ${severity === 'error' ? 'text-danger' : 'text-muted'}`}
          >
            <span className="font-semibold">
              Line {issue.line}:{issue.column}
            </span>{' '}
            {issue.path ? <span className="opacity-80">{issue.path}: </span> : null}
            {issue.message}
          </button>
        </li>
      ))}
    </ul>
  );
}
