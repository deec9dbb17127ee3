import { scanHeaderBindings } from '../headers';
import { show, type Report, type View } from './model';
import { asRecord } from '../../shared/records';

/** tools/list entries (x-mcp-header annotations, legacy execution hints, app bindings) and ui:// resources. */

const APP_MIME = 'text/html;profile=mcp-app';

function checkUiUri(value: unknown, path: string, report: Report): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || !value.startsWith('ui://')) report('ui-resource-uri-invalid', `UI resourceUri ${show(value)} must be a ui:// URI`, path);
}

/** Each tool of a tools/list result. */
export function checkToolsList(v: View, report: Report): void {
  if (!v.modern || v.method !== 'tools/list' || !Array.isArray(v.result?.tools)) return;
  (v.result.tools as unknown[]).forEach((raw, i) => {
    const tool = asRecord(raw);
    if (!tool) return;
    const path = `response.body.result.tools[${i}]`;
    const scan = scanHeaderBindings(tool.inputSchema);
    if (!scan.ok) report('tool-header-annotation-invalid', `Tool ${show(tool.name)}: ${scan.reason}; HTTP clients must drop this tool`, `${path}.inputSchema`);
    const execution = asRecord(tool.execution);
    if (execution && 'taskSupport' in execution) {
      report(
        'tool-task-support-legacy',
        `Tool ${show(tool.name)} declares execution.taskSupport; 2026-07-28 has no such field (the server decides per call)`,
        `${path}.execution.taskSupport`,
      );
    }
    const meta = asRecord(tool._meta);
    checkUiUri(asRecord(meta?.ui)?.resourceUri, `${path}._meta.ui.resourceUri`, report);
    checkUiUri(meta?.['ui/resourceUri'], `${path}._meta["ui/resourceUri"]`, report);
  });
}

/** ui:// contents of a resources/read result. */
export function checkUiResource(v: View, report: Report): void {
  if (v.method !== 'resources/read' || !Array.isArray(v.result?.contents)) return;
  (v.result.contents as unknown[]).forEach((raw, i) => {
    const c = asRecord(raw);
    if (!c || typeof c.uri !== 'string' || !c.uri.startsWith('ui://')) return;
    if (c.mimeType !== APP_MIME)
      report('ui-resource-mime', `ui:// content must be ${APP_MIME}, got ${show(c.mimeType)}`, `response.body.result.contents[${i}].mimeType`);
  });
}

/**
 * A tools/call result the server finished (not an input_required round nor a task) has a
 * `content` array: CallToolResult requires it in 2025-11-25 and 2026-07-28 alike, and a client
 * that reads it finds nothing to show.
 */
export function checkToolResult(v: View, report: Report): void {
  if (v.method !== 'tools/call' || !v.result || asRecord(v.result.task)) return;
  const kind = v.result.resultType;
  if (kind !== undefined && kind !== 'complete') return;
  if (!Array.isArray(v.result.content))
    report(
      'tool-result-content-missing',
      `The tools/call result has no content array (${v.result.content === undefined ? 'none' : show(v.result.content)})`,
      'response.body.result.content',
    );
}
