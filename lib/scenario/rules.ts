import type { ScenarioIssue } from './issues';
import { placeholderIssues } from './placeholders';
import { TOOL_KEYS } from './schema';
import { closestKey } from './zod-issues';
import { isRecord } from '../shared/records';

/**
 * Checks the zod schema cannot express: unique names, a behaviour per tool, terminal task
 * scripts, placeholders the engine can fill, and ui:// bindings that resolve. They read the raw
 * parsed data defensively, so they run even when the schema finds errors and the author sees
 * every problem in one pass.
 */

/** Builds a positioned issue for a data path. */
type IssueAt = (path: PropertyKey[], message: string) => ScenarioIssue;

/** What the rules found: errors make the file invalid, warnings do not. */
type RuleFindings = { errors: ScenarioIssue[]; warnings: ScenarioIssue[] };

const BEHAVIOURS = ['result', 'error', 'mrtr', 'task', 'handler'] as const;
const TERMINAL_STEP_KEYS = ['result', 'toolError', 'error', 'cancelled'] as const;

/** Runs every rule over raw scenario data (anything a YAML/JSON file can hold). */
export function checkScenarioRules(data: unknown, issueAt: IssueAt): RuleFindings {
  const findings: RuleFindings = { errors: [], warnings: [] };
  if (!isRecord(data)) return findings;
  const tools = entries(data.tools);
  const resources = entries(data.resources);
  findDuplicates(findings, issueAt, 'tools', tools, 'name', 'tool name');
  findDuplicates(findings, issueAt, 'prompts', entries(data.prompts), 'name', 'prompt name');
  findDuplicates(findings, issueAt, 'resources', resources, 'uri', 'resource uri');
  const resourceUris = new Set(resources.map(([, r]) => r.uri).filter((uri) => typeof uri === 'string'));
  for (const [index, tool] of tools) {
    // A misspelled behaviour (`reslt:`) is reported as an unknown key; "needs a behaviour" would only repeat it.
    const misspelt = Object.keys(tool).some((key) => !TOOL_KEYS.includes(key) && (BEHAVIOURS as readonly string[]).includes(closestKey(key, TOOL_KEYS) ?? ''));
    if (!misspelt && !BEHAVIOURS.some((key) => tool[key] !== undefined)) {
      findings.errors.push(issueAt(['tools', index], 'A tool needs a behaviour: one of result, error, mrtr, task or handler'));
    }
    checkTaskScript(findings, issueAt, index, tool.task);
    const ui = tool.ui;
    if (isRecord(ui) && typeof ui.resourceUri === 'string' && !resourceUris.has(ui.resourceUri)) {
      findings.warnings.push(issueAt(['tools', index, 'ui', 'resourceUri'], `No resource with uri "${ui.resourceUri}" is declared in resources`));
    }
  }
  findings.errors.push(...placeholderIssues(data, issueAt));
  // A step-up scope on a tool that does not exist would never be asked for.
  const toolScopes = isRecord(data.auth) && isRecord(data.auth.resource) ? data.auth.resource.toolScopes : undefined;
  const toolNames = new Set(tools.map(([, t]) => t.name));
  if (isRecord(toolScopes))
    for (const name of Object.keys(toolScopes))
      if (!toolNames.has(name)) findings.warnings.push(issueAt(['auth', 'resource', 'toolScopes', name], `No tool named "${name}" is declared in tools`));
  return findings;
}

function checkTaskScript(findings: RuleFindings, issueAt: IssueAt, toolIndex: number, task: unknown): void {
  if (!isRecord(task) || !Array.isArray(task.steps) || task.steps.length === 0) return;
  const lastIndex = task.steps.length - 1;
  const last = task.steps[lastIndex];
  if (!isRecord(last)) return; // the schema already reports a step that is not a mapping
  if (TERMINAL_STEP_KEYS.some((key) => last[key] !== undefined)) return;
  findings.errors.push(
    issueAt(['tools', toolIndex, 'task', 'steps', lastIndex], 'The last task step must be terminal: give it result, toolError, error or cancelled: true'),
  );
}

function findDuplicates(findings: RuleFindings, issueAt: IssueAt, list: string, items: [number, Record<string, unknown>][], key: string, label: string): void {
  const firstLine = new Map<string, number>();
  for (const [index, item] of items) {
    const value = item[key];
    if (typeof value !== 'string') continue;
    const issue = issueAt([list, index, key], '');
    const first = firstLine.get(value);
    if (first === undefined) firstLine.set(value, issue.line);
    else findings.errors.push({ ...issue, message: `Duplicate ${label} "${value}" (first declared at line ${first})` });
  }
}

/** The mapping entries of a list with their indexes; anything else is the schema's to report. */
function entries(list: unknown): [number, Record<string, unknown>][] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item, index) => (isRecord(item) ? [[index, item] as [number, Record<string, unknown>]] : []));
}
