import { HEADER, META, NAME_SOURCE } from '../constants';
import { decodeHeaderValue, expectedNameValue, isPlainHeaderValue, paramHeaderText, scanHeaderBindings, valueAtPath } from '../headers';
import type { Report, View } from './model';
import { asRecord } from '../../shared/records';

/**
 * Standard headers against the body: `MCP-Protocol-Version` = `_meta` version, `Mcp-Method` =
 * method, `Mcp-Name` = name/uri/taskId (base64 sentinel decoded first), and `Mcp-Param-*` =
 * the tool arguments bound with `x-mcp-header`.
 */

const SENTINEL = /^=\?base64\?.*\?=$/;

/** Compare a raw header with the body text it must carry; reports and returns nothing. */
function compare(report: Report, header: string, raw: string | undefined, expected: string, numeric = false): void {
  const path = `request.headers.${header}`;
  if (raw === undefined) {
    report('header-missing', `${header} is required: the body carries ${JSON.stringify(expected)}`, path);
    return;
  }
  const decoded = decodeHeaderValue(raw);
  if (!decoded.ok) {
    report('header-encoding-invalid', `${header}: ${decoded.reason}`, path);
    return;
  }
  const same = numeric ? /^-?\d+$/.test(decoded.value) && Number(decoded.value) === Number(expected) : decoded.value === expected;
  if (!same) {
    const how = SENTINEL.test(raw.trim()) ? ` (decoded from ${JSON.stringify(raw.trim())})` : '';
    report('header-mismatch', `${header} carries ${JSON.stringify(decoded.value)}${how} but the body carries ${JSON.stringify(expected)}`, path);
    return;
  }
  if (!isPlainHeaderValue(expected) && !SENTINEL.test(raw.trim())) {
    report('header-encoding-invalid', `${header}: ${JSON.stringify(expected)} is not plain visible ASCII and must travel as =?base64?...?=`, path);
  }
}

/** All header rules (HTTP requests of the modern era with recorded headers). */
export function checkRequestHeaders(v: View, report: Report): void {
  if (!v.modern || !v.http || !v.isRequest || !v.ex.request?.headers) return;
  const version = v.meta?.[META.protocolVersion];
  const rawVersion = v.reqHeader(HEADER.protocolVersion);
  if (rawVersion === undefined) report('header-missing', `${HEADER.protocolVersion} is required on every POST`, `request.headers.${HEADER.protocolVersion}`);
  else if (typeof version === 'string' && rawVersion.trim() !== version) {
    report(
      'header-mismatch',
      `${HEADER.protocolVersion} "${rawVersion.trim()}" differs from _meta protocolVersion "${version}"`,
      `request.headers.${HEADER.protocolVersion}`,
    );
  }
  const rawMethod = v.reqHeader(HEADER.method);
  if (rawMethod === undefined) report('header-missing', `${HEADER.method} is required on every request POST`, `request.headers.${HEADER.method}`);
  else if (rawMethod.trim() !== v.method)
    report('header-mismatch', `${HEADER.method} "${rawMethod.trim()}" differs from the body method "${v.method}"`, `request.headers.${HEADER.method}`);

  if (Object.hasOwn(NAME_SOURCE, v.method)) {
    const expected = expectedNameValue(v.method, v.params);
    const raw = v.reqHeader(HEADER.name);
    if (expected !== undefined) compare(report, HEADER.name, raw, expected);
  }
  if (v.method === 'tools/call') checkParamHeaders(v, report);
}

function checkParamHeaders(v: View, report: Report): void {
  const tool = v.ctx.tools?.find((t) => t.name === v.params.name);
  if (!tool) return;
  const scan = scanHeaderBindings(tool.inputSchema);
  // A tool with broken annotations is flagged on tools/list; clients drop it.
  if (!scan.ok) return;
  const args = asRecord(v.params.arguments);
  for (const b of scan.bindings) {
    const header = `${HEADER.paramPrefix}${b.header}`;
    const text = paramHeaderText(valueAtPath(args, b.path));
    const raw = v.reqHeader(header);
    if (text === undefined) {
      if (raw !== undefined)
        report('header-mismatch', `${header} sent although argument ${b.path.join('.')} is absent or null (omit the header then)`, `request.headers.${header}`);
      continue;
    }
    compare(report, header, raw, text, b.type === 'integer');
  }
}
