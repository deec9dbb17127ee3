import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMockHost, type MockHost } from '../../lib/server/mock-host';
import { createMockRouter } from '../../lib/server/mock-router';
import { listen } from '../../lib/adapters/node-http';
import { ScenarioSchema, type Scenario, type ScenarioInput } from '../../lib/scenario/schema';
import { buildRequest, type RpcBody, type RpcOptions } from '../helpers/rpc';

/**
 * Real-wire helpers: a node:http server running the mock router over a MockHost (SQLite in a
 * temp dir) for inline scenarios and the built-ins, and a byte-level reader for responses,
 * so tests see exactly what a client sees: chunks, their timing, and how the stream ends.
 */

export interface WireServer {
  host: MockHost;
  /** Base URL, e.g. http://127.0.0.1:1234 */
  base: string;
  token: string;
  url(scenarioId: string): string;
  stop(): Promise<void>;
}

/** Start a server for inline scenarios (by id) plus the built-ins. */
export async function startWireServer(inputs: ScenarioInput[] = [], options: { seed?: number | string } = {}): Promise<WireServer> {
  const scenarios = new Map<string, Scenario>(inputs.map((s) => [s.id, ScenarioSchema.parse(s)]));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-wire-'));
  const host = createMockHost({ dataDir, resolve: (id) => scenarios.get(id), seed: options.seed });
  const router = createMockRouter(host, inputs[0]?.id ?? 'demo');
  const server = await listen(router.fetch, '127.0.0.1', 0);
  const base = `http://127.0.0.1:${server.port}`;
  return {
    host,
    base,
    token: router.token,
    url: (id) => `${base}/mcp/${id}`,
    async stop() {
      await server.close();
      host.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** How a read ended when it did not return a chunk. */
export type ReadOutcome = { chunk: string } | { done: true } | { error: Error } | { timeout: true };

/** A response read chunk by chunk as it arrives on the socket. */
export interface WireResponse {
  response: Response;
  status: number;
  headers: Headers;
  id: string | number;
  /** Everything received so far. */
  text(): string;
  /** Chunks received so far, as the reader got them. */
  chunks: string[];
  /** Next chunk, or how the stream ended, or a timeout after `ms`. */
  next(ms: number): Promise<ReadOutcome>;
  /** Read until `predicate(text)` holds, the stream ends or `ms` pass. */
  until(predicate: (text: string) => boolean, ms: number): Promise<ReadOutcome | { matched: true }>;
  /** Read to the end (or the error that ended it). */
  drain(ms?: number): Promise<ReadOutcome>;
  close(): Promise<void>;
}

/** Send one JSON-RPC request over real HTTP and return a chunk reader on the response. */
export async function send(url: string, method: string, params: Record<string, unknown> = {}, options: RpcOptions = {}): Promise<WireResponse> {
  const { request, id } = buildRequest(method, params, { ...options, url, headers: { Host: new URL(url).host, ...(options.headers ?? {}) } });
  const ac = new AbortController();
  const response = await fetch(request, { signal: ac.signal });
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  let ended: ReadOutcome | undefined;

  async function next(ms: number): Promise<ReadOutcome> {
    if (ended) return ended;
    if (!reader) {
      ended = { done: true };
      return ended;
    }
    pending ??= reader.read();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), ms);
    });
    try {
      const r = await Promise.race([pending, timeout]);
      if (r === 'timeout') return { timeout: true };
      pending = undefined;
      if (r.done) {
        ended = { done: true };
        return ended;
      }
      const chunk = decoder.decode(r.value, { stream: true });
      chunks.push(chunk);
      return { chunk };
    } catch (e) {
      pending = undefined;
      ended = { error: e as Error };
      return ended;
    } finally {
      clearTimeout(timer);
    }
  }

  const text = () => chunks.join('');
  return {
    response,
    status: response.status,
    headers: response.headers,
    id,
    chunks,
    text,
    next,
    async until(predicate, ms) {
      const deadline = Date.now() + ms;
      while (!predicate(text())) {
        const left = deadline - Date.now();
        if (left <= 0) return { timeout: true };
        const r = await next(left);
        if (!('chunk' in r)) return predicate(text()) ? { matched: true } : r;
      }
      return { matched: true };
    },
    async drain(ms = 10_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const r = await next(Math.max(1, deadline - Date.now()));
        if (!('chunk' in r)) return r;
      }
    },
    async close() {
      ac.abort();
      await reader?.cancel().catch(() => {});
    },
  };
}

/** The `data:` payloads of complete SSE events in `text`, raw (not parsed). */
export function sseData(text: string): string[] {
  const out: string[] = [];
  const blocks = text.replace(/\r\n/g, '\n').split('\n\n');
  blocks.pop(); // the last block is incomplete (or empty)
  for (const block of blocks) {
    const data = block
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data) out.push(data);
  }
  return out;
}

/**
 * A JSON-RPC message off a stream: a notification (method, params) or a response (id, result
 * or error). Payloads are as loosely typed as the helpers' RpcBody, so assertions reach in.
 */
export type WireMessage = Partial<RpcBody> & { method?: string; params?: RpcBody['result'] };

/** SSE payloads that parse as JSON. */
export function sseMessages(text: string): WireMessage[] {
  return sseData(text).flatMap((d) => {
    try {
      return [JSON.parse(d) as WireMessage];
    } catch {
      return [];
    }
  });
}

/** The final JSON-RPC response to `id` among the SSE messages, if it arrived. */
export function responseTo(text: string, id: string | number): WireMessage | undefined {
  return sseMessages(text).find((m) => m.id === id && ('result' in m || 'error' in m));
}
