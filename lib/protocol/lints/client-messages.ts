import { HEADER } from '../constants';
import { show, type Report, type View } from './model';
import { asRecord } from '../../shared/records';

/**
 * What the client sends besides requests and notifications. Under 2025-11-25 a server may ask
 * the client (elicitation/create, sampling/createMessage, roots/list); the client answers with
 * a JSON-RPC response, POSTed on Streamable HTTP (the server acknowledges it with 202) or written
 * on stdin, and listens with a GET for the server's own stream. Both are legal: only a
 * malformed answer is flagged. 2026-07-28 has no server requests (a POST body is "a request or
 * notification, never a response"), so an answer there is noted as a warning: it can only
 * follow a server that broke that rule first.
 */

const isId = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

/** The client's answer to a server request: a valid JSON-RPC response carrying the request's id. */
export function checkClientAnswer(v: View, report: Report): void {
  const res = v.req;
  if (!res) return;
  const where = 'request.body';
  if (v.modern)
    report(
      'client-response-sent',
      `The client sent a JSON-RPC response (id ${show(res.id)}); under 2026-07-28 servers send no requests, input is asked for with input_required`,
      where,
    );
  if (res.jsonrpc !== '2.0') report('request-jsonrpc-invalid', `jsonrpc must be "2.0", got ${show(res.jsonrpc)}`, `${where}.jsonrpc`);
  const hasResult = 'result' in res;
  const hasError = 'error' in res;
  if (hasResult && hasError) report('request-jsonrpc-invalid', "The client's answer carries both result and error; a response has exactly one", where);
  // JSON-RPC allows a null id only on an error about a request whose id could not be read.
  if (!isId(res.id) && !(res.id === null && hasError && !hasResult))
    report(
      'request-jsonrpc-invalid',
      `The answer's id must be the id of the server request it answers (a string or an integer), not ${show(res.id)}`,
      `${where}.id`,
    );
  if (hasResult && !hasError && !asRecord(res.result))
    report('request-jsonrpc-invalid', `result must be an object, got ${show(res.result)}`, `${where}.result`);
  if (hasError && !hasResult) {
    const e = asRecord(res.error);
    if (!e || typeof e.code !== 'number' || !Number.isInteger(e.code) || typeof e.message !== 'string')
      report('request-jsonrpc-invalid', `error must be {code: integer, message: string, data?}, got ${show(res.error)}`, `${where}.error`);
  }
}

/**
 * A GET's stream carries the server's own requests and notifications. It carries a response
 * only when it resumes the stream of an earlier request (the GET sent Last-Event-ID).
 */
export function checkBodylessStream(v: View, report: Report): void {
  const resuming = v.reqHeader(HEADER.lastEventId) !== undefined;
  for (const [i, frame] of v.frames.entries()) {
    const m = asRecord(frame);
    if (m?.jsonrpc !== '2.0') {
      report('stream-frame-invalid', `Frame ${i} of the GET stream is not a JSON-RPC 2.0 message: ${show(frame)}`, `frames[${i}]`);
      continue;
    }
    if (typeof m.method !== 'string' && !resuming)
      report(
        'stream-frame-invalid',
        `Frame ${i} is a response (id ${show(m.id)}) on the GET stream; a response goes there only when the GET resumes a request's stream with Last-Event-ID`,
        `frames[${i}]`,
      );
  }
}
