import { invisibleCodes, showInvisible } from '../../shared/invisible-text';
import { asRecord } from '../../shared/records';
import { META } from '../constants';
import type { Report, View } from './model';

/**
 * Names a person picks from (tools, resources, templates, prompts, the server's own) holding
 * bidirectional controls or invisible characters: `‮` can make one name read as another and
 * U+200B can hide inside one. The spec's tool names are ASCII letters, digits, `_`, `-` and `.`
 * (server/tools#tool-names); no honest name needs these. Both eras; the first finding per list.
 */

/** Where each list result keeps its items, and which of their fields are names. */
const LISTS: Record<string, { key: string; fields: readonly string[] }> = {
  'tools/list': { key: 'tools', fields: ['name', 'title'] },
  'resources/list': { key: 'resources', fields: ['name', 'title', 'uri'] },
  'resources/templates/list': { key: 'resourceTemplates', fields: ['name', 'title', 'uriTemplate'] },
  'prompts/list': { key: 'prompts', fields: ['name', 'title'] },
};

/** Whether `value` is a name holding such characters; reported at `path()` (built only for a finding: a page lists thousands of names). */
function check(value: unknown, path: () => string, what: () => string, report: Report): boolean {
  if (typeof value !== 'string') return false;
  const codes = invisibleCodes(value);
  if (!codes.length) return false;
  report(
    'text-bidi-control',
    `${what()} ${JSON.stringify(showInvisible(value).slice(0, 120))} holds ${codes.join(', ')}: it can read as another name or hide characters`,
    path(),
  );
  return true;
}

/** The names of a list result, and the server's own (`initialize`, or any 2026-07-28 result's `_meta`). */
export function checkNames(v: View, report: Report): void {
  const result = v.result;
  if (!result) return;
  const list = LISTS[v.method];
  if (list && Array.isArray(result[list.key])) {
    const items = result[list.key] as unknown[];
    for (let i = 0; i < items.length; i++) {
      const item = asRecord(items[i]);
      if (!item) continue;
      for (const f of list.fields) {
        if (
          check(
            item[f],
            () => `response.body.result.${list.key}[${i}].${f}`,
            () => `${list.key.slice(0, -1)} ${f}`,
            report,
          )
        )
          return;
      }
    }
  }
  const server = () => 'Server name';
  if (v.method === 'initialize') check(asRecord(result.serverInfo)?.name, () => 'response.body.result.serverInfo.name', server, report);
  else if (v.method === 'server/discover')
    check(asRecord(asRecord(result._meta)?.[META.serverInfo])?.name, () => `response.body.result._meta["${META.serverInfo}"].name`, server, report);
}
