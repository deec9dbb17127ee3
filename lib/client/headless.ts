import {
  LEGACY_VERSIONS,
  MODERN_VERSION,
  type ClientCapabilities,
  type InputRequests,
  type InputResponses,
  type JsonRpcNotification,
  type LoggingLevel,
} from '../protocol';
import { asRecord } from '../shared/records';
import type { AuthorizedFetch } from './auth/authorized-fetch';
import type { Frame } from './frames';
import { createHttpTransport } from './http-transport';
import type { Era } from './request-builder';
import { unanswered, type ServerRequestAnswerer } from './server-requests';
import { createClientSession, type ClientSession } from './session';
import { createTrackingTransport } from './tracking';
import type { Transport } from './transport';

/**
 * The headless entry the CLI and the conformance adapter use: an HTTP transport (with the
 * user's extra headers), the tracking decorator when frames are wanted, a session, and
 * answerers built from stub values instead of a UI.
 */

interface HeadlessOptions {
  /** The Streamable HTTP endpoint, or… */
  url?: string;
  /** …another transport (the CLI's stdio child). */
  transport?: Transport;
  headers?: Record<string, string>;
  era?: Era | 'auto';
  protocolVersion?: string;
  capabilities?: ClientCapabilities;
  clientInfo?: { name: string; version: string };
  timeoutMs?: number;
  maxTimeoutMs?: number;
  /** Receives every frame (e.g. for --record). */
  onFrame?: (frame: Frame) => void;
  onWarning?: (text: string) => void;
  /** Every notification the server sends (logs, progress, list changes). */
  onNotification?: (n: JsonRpcNotification) => void;
  /** The log level asked for on each 2026-07-28 request (`_meta` logLevel): the server logs from it up. */
  logLevel?: LoggingLevel;
  /** Answers the server's requests on a 2025-11-25 stream (see stubAnswerer). */
  onServerRequest?: ServerRequestAnswerer;
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** OAuth for the HTTP transport (lib/client/auth): it fetches in place of `fetch`; its steps join the frames. */
  auth?: AuthorizedFetch;
  /**
   * Bytes one answer may carry before it is cut. None by default: the page's budget
   * (ANSWER_BYTE_BUDGET) guards what a page keeps on screen, while a script or the CLI handles one
   * message at a time and a listen stream may rightly run for days.
   */
  maxAnswerBytes?: number;
}

/** A session over Streamable HTTP (or a given transport) for scripts. */
export function createHeadlessSession(o: HeadlessOptions): ClientSession {
  if (!o.transport && !o.url) throw new Error('createHeadlessSession needs a url or a transport');
  const base =
    o.transport ??
    createHttpTransport({
      url: o.url ?? '',
      headers: o.headers,
      fetch: o.auth?.fetch ?? o.fetch,
      streamByteBudget: o.maxAnswerBytes ?? Number.POSITIVE_INFINITY,
    });
  const tracked = o.onFrame ? createTrackingTransport(base, { sink: o.onFrame }) : undefined;
  // The auth lane's frames go into the same sequence as the MCP frames they interleave with.
  if (tracked && o.auth) o.auth.setSink(tracked.record);
  const transport = tracked ?? base;
  return createClientSession({
    transport,
    era: o.era ?? 'auto',
    protocolVersion: o.protocolVersion,
    // The chosen version first; the others stay available for a -32022 retry.
    ...(o.protocolVersion ? { supportedVersions: [o.protocolVersion, ...[MODERN_VERSION, ...LEGACY_VERSIONS].filter((v) => v !== o.protocolVersion)] } : {}),
    capabilities: o.capabilities,
    clientInfo: o.clientInfo,
    timeoutMs: o.timeoutMs,
    maxTimeoutMs: o.maxTimeoutMs,
    onWarning: o.onWarning,
    onNotification: o.onNotification,
    ...(o.logLevel ? { logLevel: o.logLevel } : {}),
    onServerRequest: o.onServerRequest,
    serverStream: true,
  });
}

/** Stub answers for input requests, as given on a command line. */
export interface InputStubs {
  /** Form content to accept with, or a full ElicitResult (`{ action, content? }`). */
  elicit?: Record<string, unknown>;
  /** How URL-mode elicitations are answered (declares `elicitation.url`); accept carries no content. */
  elicitUrl?: 'accept' | 'decline' | 'cancel';
  /** Sampled text, or a full CreateMessageResult. */
  sampling?: string | Record<string, unknown>;
  /** Roots to answer roots/list with. */
  roots?: { uri: string; name?: string }[];
}

/** The capabilities a client with these stubs can honestly declare. */
export function capabilitiesForStubs(stubs: InputStubs): ClientCapabilities {
  return {
    ...(stubs.elicit || stubs.elicitUrl ? { elicitation: { ...(stubs.elicit ? { form: {} } : {}), ...(stubs.elicitUrl ? { url: {} } : {}) } } : {}),
    ...(stubs.sampling !== undefined ? { sampling: {} } : {}),
    ...(stubs.roots ? { roots: {} } : {}),
  };
}

/** The `default` of each property of a form's requestedSchema (SEP-1034: a client fills omitted fields with them). */
function schemaDefaults(params: unknown): Record<string, unknown> {
  const props = asRecord(asRecord(asRecord(params)?.requestedSchema)?.properties) ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(props)) {
    const d = asRecord(p)?.default;
    if (d !== undefined) out[name] = d;
  }
  return out;
}

/** A server-request answerer from the stubs: what a stub covers is answered, the rest is refused with -32601. */
export function stubAnswerer(stubs: InputStubs): ServerRequestAnswerer {
  return async (method, params) => {
    const answer = answerWithStubs({ q: { method, params: params ?? {} } } as InputRequests, stubs).q;
    if (answer) return { result: answer as Record<string, unknown> };
    // Nobody to ask: an elicitation is dismissed (cancel); the others were never declared without a stub.
    if (method === 'elicitation/create') return { result: { action: 'cancel' } };
    return unanswered(method);
  };
}

/** Answer each input request a stub covers; keys without a stub are left out. */
export function answerWithStubs(requests: InputRequests, stubs: InputStubs): InputResponses {
  const out: InputResponses = {};
  for (const [key, req] of Object.entries(requests)) {
    const isUrl = (req.params as { mode?: string } | undefined)?.mode === 'url';
    if (req.method === 'elicitation/create' && isUrl && stubs.elicitUrl) out[key] = { action: stubs.elicitUrl };
    else if (req.method === 'elicitation/create' && stubs.elicit) {
      const s = stubs.elicit;
      if (typeof s.action === 'string') out[key] = s;
      // URL mode: accept means consent to open the URL, so it carries no content.
      else out[key] = isUrl ? { action: 'accept' } : { action: 'accept', content: { ...schemaDefaults(req.params), ...s } };
    } else if (req.method === 'sampling/createMessage' && stubs.sampling !== undefined) {
      const s = stubs.sampling;
      out[key] = typeof s === 'string' ? { role: 'assistant', content: { type: 'text', text: s }, model: 'mcp-loupe-stub', stopReason: 'endTurn' } : s;
    } else if (req.method === 'roots/list' && stubs.roots) {
      out[key] = { roots: stubs.roots };
    }
  }
  return out;
}
