import type { Exchange } from '../../../lib/protocol/lints';
import { buildRequest, parseSse, type FetchTarget, type RpcBody, type RpcOptions } from '../../helpers/rpc';

/**
 * Capture what a client sees on the wire for one request to an engine: the request headers
 * and body it sent, the response status and headers, every SSE frame and the final response.
 * The result is an `Exchange` for the lints.
 */

export interface CaptureOptions extends RpcOptions {
  /** Timestamp for the exchange (the engine's fake clock). */
  at?: number;
  /** For open streams (listen): stop reading once this returns true for the frames so far. */
  until?: (frames: unknown[]) => boolean;
}

function record(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/** Send one request through `target.fetch` and return the exchange as the client saw it. */
export async function capture(target: FetchTarget, method: string, params: Record<string, unknown> = {}, options: CaptureOptions = {}): Promise<Exchange> {
  const { request, id } = buildRequest(method, params, options);
  const requestHeaders = record(request.headers);
  const requestBody = await request.clone().json();
  const response = await target.fetch(request);
  const frames: unknown[] = [];
  let final: unknown;
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    reading: for (;;) {
      const { done, value } = await reader.read();
      if (value) buffer += decoder.decode(value, { stream: true });
      const cut = buffer.lastIndexOf('\n\n');
      if (cut >= 0) {
        for (const message of parseSse(buffer.slice(0, cut + 2))) {
          const m = message as Record<string, unknown>;
          if (m && m.id === id && ('result' in m || 'error' in m)) {
            final = m;
            await reader.cancel().catch(() => {});
            break reading;
          }
          frames.push(message);
          if (options.until?.(frames)) {
            await reader.cancel().catch(() => {});
            break reading;
          }
        }
        buffer = buffer.slice(cut + 2);
      }
      if (done) break;
    }
  } else {
    const text = await response.text();
    final = text ? JSON.parse(text) : undefined;
  }
  return {
    method,
    request: { headers: requestHeaders, body: requestBody },
    response: { status: response.status, headers: record(response.headers), body: final },
    frames,
    era: 'modern',
    transport: 'http',
    ...(options.at !== undefined ? { at: options.at } : {}),
  };
}

/** The `result` of an exchange's final response (loosely typed, as in RpcBody). */
export function resultOf(ex: Exchange): RpcBody['result'] {
  return (ex.response?.body as { result?: unknown } | undefined)?.result;
}

/** The `error` of an exchange's final response. */
export function errorOf(ex: Exchange): RpcBody['error'] {
  return (ex.response?.body as Partial<RpcBody> | undefined)?.error;
}
