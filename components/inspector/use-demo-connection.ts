'use client';

import { useEffect, useState } from 'react';
import { DiscoverResultSchema, HEADER, ListToolsResultSchema, META, MODERN_VERSION, type Tool } from '@/lib/protocol';

/**
 * Connects to the built-in `demo` mock on this origin: `server/discover`, then `tools/list`.
 * A stopgap until the inspector's client (lib/client) and stores (lib/state) take over.
 */

export interface DemoServer {
  name: string;
  version: string;
  title?: string;
  supportedVersions: string[];
  capabilities: Record<string, unknown>;
  instructions?: string;
}

export type DemoConnectionState =
  | { status: 'connecting' }
  | { status: 'connected'; server: DemoServer; tools: Tool[]; elapsedMs: number }
  | { status: 'error'; message: string };

/** The JSON-RPC message in a JSON body, or the one answering `id` in an SSE body. */
function responseFrom(text: string, contentType: string, id: number): unknown {
  if (!contentType.startsWith('text/event-stream')) return JSON.parse(text);
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (!data) continue;
    const message = JSON.parse(data) as { id?: unknown };
    if (message.id === id) return message;
  }
  throw new Error('the event stream ended without a response');
}

/** One 2026-07-28 request over Streamable HTTP; resolves with the `result` object. */
async function rpc(endpoint: string, id: number, method: string, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(endpoint, {
    method: 'POST',
    cache: 'no-store',
    signal,
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      [HEADER.protocolVersion]: MODERN_VERSION,
      [HEADER.method]: method,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: { _meta: { [META.protocolVersion]: MODERN_VERSION, [META.clientCapabilities]: {} } },
    }),
  });
  const text = await res.text();
  let message: { result?: unknown; error?: { code: number; message: string } };
  try {
    message = responseFrom(text, res.headers.get('content-type') ?? '', id) as typeof message;
  } catch (e) {
    throw new Error(`${method}: HTTP ${res.status}, unreadable body (${(e as Error).message})`);
  }
  if (message.error) throw new Error(`${method}: ${message.error.code} ${message.error.message}`);
  if (!res.ok) throw new Error(`${method}: HTTP ${res.status}`);
  return message.result;
}

function issues(method: string, error: { issues: { path: PropertyKey[]; message: string }[] }): Error {
  const first = error.issues[0];
  return new Error(`${method}: invalid result at ${first?.path.map(String).join('.') || '(root)'}: ${first?.message}`);
}

async function connect(endpoint: string, signal: AbortSignal): Promise<Extract<DemoConnectionState, { status: 'connected' }>> {
  const started = performance.now();
  const discovered = DiscoverResultSchema.safeParse(await rpc(endpoint, 1, 'server/discover', signal));
  if (!discovered.success) throw issues('server/discover', discovered.error);
  const listed = ListToolsResultSchema.safeParse(await rpc(endpoint, 2, 'tools/list', signal));
  if (!listed.success) throw issues('tools/list', listed.error);
  const d = discovered.data;
  const info = d._meta?.[META.serverInfo];
  return {
    status: 'connected',
    elapsedMs: Math.round(performance.now() - started),
    tools: listed.data.tools,
    server: {
      name: info?.name ?? '(unnamed server)',
      version: info?.version ?? '?',
      title: info?.title,
      supportedVersions: d.supportedVersions,
      capabilities: d.capabilities as Record<string, unknown>,
      instructions: d.instructions,
    },
  };
}

/** Connect once on mount (and again when `endpoint` changes); aborted on unmount. */
export function useDemoConnection(endpoint = '/mcp'): DemoConnectionState {
  const [state, setState] = useState<DemoConnectionState>({ status: 'connecting' });
  useEffect(() => {
    const ac = new AbortController();
    setState({ status: 'connecting' });
    connect(endpoint, ac.signal).then(
      (connected) => {
        if (!ac.signal.aborted) setState(connected);
      },
      (e: unknown) => {
        if (!ac.signal.aborted) setState({ status: 'error', message: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => ac.abort();
  }, [endpoint]);
  return state;
}
