import { show, type Report, type View } from './model';
import { asRecord } from '../../shared/records';

/**
 * stdio lines the server wrote that belong to no request: stdout carries only newline-delimited
 * JSON-RPC messages (logs go to stderr), and a response answers a request the client sent and
 * is still waiting on. There are no SSE streams here, so the HTTP stream rules do not apply.
 */

/** A line that is no JSON-RPC 2.0 message (a line that is not JSON arrives as its text). */
const notJsonRpc = (line: unknown) => asRecord(line)?.jsonrpc !== '2.0';

/** A response among the other lines: it answers no request still waiting for one. */
const isStrayResponse = (line: unknown) => {
  const m = asRecord(line);
  return !!m && typeof m.method !== 'string' && ('result' in m || 'error' in m);
};

/** Whether the stdio rules here judge this line (the stream rules then leave it alone). */
export function isStrayLine(line: unknown): boolean {
  return notJsonRpc(line) || isStrayResponse(line);
}

/** Lines that are not JSON-RPC, and responses whose id answers no pending request. */
export function checkStdioLines(v: View, report: Report): void {
  if (v.http) return;
  const open = v.isRequest && v.ex.response?.body === undefined ? ` (the request still open here is ${v.method} id ${show(v.id)})` : '';
  for (const [i, line] of v.frames.entries()) {
    const path = `frames[${i}]`;
    if (typeof line === 'string') {
      report(
        'stdio-line-invalid',
        `The server wrote a line to stdout that is not JSON: ${show(line)}; stdout carries only JSON-RPC messages, one per line`,
        path,
      );
    } else if (notJsonRpc(line)) {
      report('stdio-line-invalid', `The server wrote a line to stdout that is not a JSON-RPC 2.0 message: ${show(line)}`, path);
    } else if (isStrayResponse(line)) {
      const id = asRecord(line)?.id;
      report(
        'response-id-mismatch',
        `The server sent a response with id ${show(id)}, which answers no pending request (none with that id is waiting: never sent, or answered already)${open}; a response carries the id of the request it answers`,
        `${path}.id`,
      );
    }
  }
}
