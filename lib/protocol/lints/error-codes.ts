import { META } from '../constants';
import { DRAFT_CODES, ERROR, RETIRED_CODES, isUndefinedReservedCode } from '../errors';
import { show, type Report, type View } from './model';
import { asRecord } from '../../shared/records';

/** Error codes: the reserved range, retired and draft codes, and the data -32021/-32022 carry. */

const RETIRED: Readonly<Record<number, string>> = {
  [RETIRED_CODES.resourceNotFound]: 'resource not found until 2025-11-25; 2026-07-28 answers -32602',
  [RETIRED_CODES.urlElicitationRequired]: 'URL elicitation required in 2025-11-25; 2026-07-28 asks with input_required',
};

/** Code policy for one error object (a response error or a failed task's error). */
export function checkErrorCode(code: unknown, path: string, modern: boolean, report: Report): void {
  if (!modern || typeof code !== 'number') return;
  if (RETIRED[code]) {
    report('error-code-retired', `${code} is retired and never reused (${RETIRED[code]})`, path);
  } else if (isUndefinedReservedCode(code)) {
    report(
      'error-code-reserved-undefined',
      `${code} is implementation-defined, reserved range: -32020..-32099 belongs to the spec, which defines only -32020, -32021 and -32022`,
      path,
    );
  } else if (DRAFT_CODES[code]) {
    report('error-code-draft', `${code} is a ${DRAFT_CODES[code]}`, path);
  }
}

/** The error of the final response. */
export function checkResponseError(v: View, report: Report): void {
  const e = v.error;
  if (!e) return;
  checkErrorCode(e.code, 'response.body.error.code', v.modern, report);
  const data = asRecord(e.data);
  // lib/recording/replay-match.ts: what was not recorded, and the closest recorded request.
  const missing = asRecord(data?.notRecorded);
  if (typeof missing?.method === 'string') {
    const closest = asRecord(data?.closest);
    report(
      'replay-unmatched',
      `the replay holds no recorded answer for this ${missing.method}${typeof closest?.method === 'string' ? `; the closest recorded request is a ${closest.method} (error.data.closest)` : ''}`,
      'response.body.error.data.notRecorded',
    );
  }
  if (!v.modern) return;
  if (e.code === ERROR.missingRequiredClientCapability && !asRecord(data?.requiredCapabilities)) {
    report(
      'error-data-invalid',
      '-32021 must name what is missing in data.requiredCapabilities (a ClientCapabilities object)',
      'response.body.error.data.requiredCapabilities',
    );
  }
  if (e.code === ERROR.unsupportedProtocolVersion) {
    const supported = data?.supported;
    if (!Array.isArray(supported) || supported.some((s) => typeof s !== 'string')) {
      report('error-data-invalid', '-32022 must list data.supported (the versions the server implements)', 'response.body.error.data.supported');
    }
    const asked = v.meta?.[META.protocolVersion];
    if (typeof data?.requested !== 'string')
      report('error-data-invalid', '-32022 must echo data.requested (the version the client asked for)', 'response.body.error.data.requested');
    else if (typeof asked === 'string' && data.requested !== asked) {
      report(
        'error-data-invalid',
        `data.requested ${show(data.requested)} is not the version the request asked for (${show(asked)})`,
        'response.body.error.data.requested',
      );
    }
  }
}
