import { checkCaching } from './caching';
import { checkBodylessStream, checkClientAnswer } from './client-messages';
import {
  checkDiscover,
  checkHttpStatus,
  checkRemovedMethods,
  checkRequestEnvelope,
  checkResponseEnvelope,
  checkResultType,
  checkTransportHeaders,
} from './envelope';
import { checkEncoding } from './encoding';
import { checkNames } from './names';
import { checkResponseError } from './error-codes';
import { checkRequestHeaders } from './http-headers';
import { checkRequestMeta } from './meta';
import { type Exchange, type Lint, type LintContext, viewOf } from './model';
import { checkInputRequired, checkRetry } from './mrtr';
import { createReporter, type LintId } from './rules';
import { checkStdioLines } from './stdio';
import { checkFrames } from './streams';
import { checkTaskRequest, checkTaskResults } from './tasks';
import { checkToolResult, checkToolsList, checkUiResource } from './tools';

/** One exchange through every per-message rule, in wire order: request, headers, response, frames. */

/** Client errors a server must reject (400 with -32020 / -32602, or -32021) rather than serve. */
const MUST_REJECT = new Set<LintId>(['header-missing', 'header-mismatch', 'header-encoding-invalid']);

function dedupe(lints: Lint[]): Lint[] {
  const seen = new Set<string>();
  return lints.filter((l) => {
    const key = `${l.id}\u0000${l.path ?? ''}\u0000${l.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Lint one exchange. Never throws on malformed input: malformed input is what it reports. */
export function lintExchange(ex: Exchange, ctx: LintContext = {}): Lint[] {
  const v = viewOf(ex, ctx);
  const out: Lint[] = [];
  const report = createReporter(out);
  // Not requests: the request rules below would read them as malformed ones.
  if (v.bodyless) {
    checkBodylessStream(v, report);
    return dedupe(out);
  }
  if (v.answer) {
    checkClientAnswer(v, report);
    checkStdioLines(v, report);
    return dedupe(out);
  }
  // stdio lines that came while no request was open (the stdio tap groups them on their own).
  if (!v.ex.request && !v.ex.response) {
    checkStdioLines(v, report);
    return dedupe(out);
  }
  checkRequestEnvelope(v, report);
  checkResponseEnvelope(v, report);
  const metaBroken = checkRequestMeta(v, report);
  checkRequestHeaders(v, report);
  const undeclaredTasks = checkTaskRequest(v, report);
  checkTransportHeaders(v, report);
  checkRemovedMethods(v, report);
  checkResultType(v, report);
  checkHttpStatus(v, report, metaBroken);
  checkResponseError(v, report);
  checkCaching(v, report);
  checkDiscover(v, report);
  checkInputRequired(v, report);
  checkRetry(v, report);
  checkTaskResults(v, report);
  checkFrames(v, report);
  checkStdioLines(v, report);
  checkToolsList(v, report);
  checkToolResult(v, report);
  checkUiResource(v, report);
  checkEncoding(v, report);
  checkNames(v, report);
  if (v.modern && v.result && (metaBroken || undeclaredTasks || out.some((l) => MUST_REJECT.has(l.id as LintId)))) {
    const why = metaBroken
      ? '400 with -32602 (required _meta)'
      : undeclaredTasks
        ? '-32021 (tasks extension not declared)'
        : '400 with -32020 (header mismatch)';
    report('invalid-request-accepted', `The server served a request it must reject with ${why}`, 'response.body.result');
  }
  return dedupe(out);
}
