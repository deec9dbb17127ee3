import type { ScenarioIssue } from './issues';
import { closestKey } from './zod-issues';
import { isRecord } from '../shared/records';

/**
 * `{{path.to.value}}` placeholders: their syntax (the engine fills them, lib/engine/template.ts)
 * and the check that each starts at a value the engine provides where it is written. A
 * placeholder with another root (`{{arg.text}}`, `{{foo.bar}}`) used to render an empty string.
 */

/** One placeholder; the first group is its dotted path. */
export const PLACEHOLDER_SOURCE = String.raw`\{\{\s*([\w.$-]+)\s*\}\}`;

/** The roots each part of a scenario is filled from (tools.ts, task-script.ts, catalog.ts). */
const TOOL_ROOTS = ['args', 'inputs', 'progressToken'];
const TASK_ROOTS = ['args', 'inputs', 'taskId'];
const PROMPT_ROOTS = ['args', 'inputs'];
const RESOURCE_ROOTS = ['inputs'];
const TEMPLATE_ROOTS = ['vars'];

/** The parts of a tool that are filled when it runs; the rest (schemas, descriptions) is sent as written. */
const FILLED_TOOL_KEYS = ['result', 'error', 'log', 'mrtr', 'delayMs'];

type IssueAt = (path: PropertyKey[], message: string) => ScenarioIssue;

/** Every placeholder in a filled part of `data` whose root is not provided there. */
export function placeholderIssues(data: Record<string, unknown>, issueAt: IssueAt): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  const check = (value: unknown, path: PropertyKey[], roots: readonly string[]) => walk(value, path, roots, issueAt, issues);
  listed(data.tools, (tool, i) => {
    for (const key of FILLED_TOOL_KEYS) check(tool[key], ['tools', i, key], TOOL_ROOTS);
    check(tool.task, ['tools', i, 'task'], TASK_ROOTS);
  });
  listed(data.prompts, (prompt, i) => {
    check(prompt.messages, ['prompts', i, 'messages'], PROMPT_ROOTS);
    check(prompt.mrtr, ['prompts', i, 'mrtr'], PROMPT_ROOTS);
  });
  // A resource's text is filled only after MRTR rounds; otherwise it is sent as written (an app's HTML may hold `{{`).
  listed(data.resources, (resource, i) => {
    if (resource.mrtr === undefined) return;
    check(resource.text, ['resources', i, 'text'], RESOURCE_ROOTS);
    check(resource.mrtr, ['resources', i, 'mrtr'], RESOURCE_ROOTS);
  });
  listed(data.resourceTemplates, (template, i) => check(template.text, ['resourceTemplates', i, 'text'], TEMPLATE_ROOTS));
  return issues;
}

function walk(value: unknown, path: PropertyKey[], roots: readonly string[], issueAt: IssueAt, issues: ScenarioIssue[]): void {
  if (typeof value === 'string') {
    for (const match of value.matchAll(new RegExp(PLACEHOLDER_SOURCE, 'g'))) {
      const root = (match[1] ?? '').split('.')[0] ?? '';
      if (roots.includes(root)) continue;
      const meant = closestKey(root, roots);
      const known = roots.join(', ');
      issues.push(
        issueAt(
          path,
          `Unknown placeholder ${match[0]}: "${root}" is not a value here${meant ? ` (did you mean "${meant}"?)` : ''}; placeholders here start with ${known}`,
        ),
      );
    }
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) walk(item, [...path, i], roots, issueAt, issues);
  } else if (isRecord(value)) for (const [key, item] of Object.entries(value)) walk(item, [...path, key], roots, issueAt, issues);
}

function listed(list: unknown, each: (item: Record<string, unknown>, index: number) => void): void {
  if (!Array.isArray(list)) return;
  for (const [index, item] of list.entries()) if (isRecord(item)) each(item, index);
}
