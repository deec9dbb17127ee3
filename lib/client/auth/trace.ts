import type { Frame } from '../frames';
import { headerRecord } from '../frames';
import { AuthError } from './errors';

/**
 * Every HTTP step of an authorization flow, reported as frames on the `auth` lane: the request
 * (`http-request`, out) and, once the client has checked the answer, the response
 * (`http-response`, in) with what was checked. Each frame names its step, the spec rule that
 * makes the client take it, and the URL, so a timeline or a recording can replay the flow
 * and a guided debugger can explain it. Frames are unredacted like every other frame;
 * exports redact the secrets they carry (lib/recording/secrets.ts).
 */

/** The steps of a flow, in the order they usually happen. */
export type AuthStepName =
  | 'challenge'
  | 'resource-metadata'
  | 'authorization-server-metadata'
  | 'registration'
  | 'authorization'
  | 'callback'
  | 'token'
  | 'refresh'
  | 'client-credentials'
  | 'step-up';

/** One check the client made on an answer. */
export interface AuthCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

/** A frame as the tracer reports it; the tracking decorator's `record` fills seq, time and size. */
export type AuthFrame = Omit<Frame, 'seq' | 'connectionId' | 'at' | 'bytes'>;

/** An HTTP step in flight: report what was checked to close it. */
export interface TracedExchange {
  response: Response;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
  /** Emit the response frame with these checks (only the first call counts). */
  report(checks?: AuthCheck[]): void;
}

export interface AuthTracer {
  /** Send one request of a step; the request frame is emitted at once. */
  fetch(step: AuthStepName, rule: string, url: string, init: RequestInit): Promise<TracedExchange>;
  /** A step without an HTTP exchange of its own (a 401 seen, a callback read, a decision). */
  note(step: AuthStepName, rule: string, checks: AuthCheck[], detail?: { url?: string; body?: unknown }): void;
  /** Emit every response frame still open (when a flow ends early). */
  flush(): void;
}

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** A step about to be sent, as a guided debugger shows it before letting it go. */
export interface AuthStepPreview {
  step: AuthStepName;
  rule: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * Waits before each HTTP step (the inspector's guided mode: the person reads the step, then
 * continues); a rejection stops the flow there, as a failed step does.
 */
export type AuthGate = (preview: AuthStepPreview) => Promise<void>;

function formBody(body: RequestInit['body']): unknown {
  if (body instanceof URLSearchParams) return Object.fromEntries(body);
  if (typeof body === 'string') {
    try {
      return JSON.parse(body) as unknown;
    } catch {
      return body;
    }
  }
  return undefined;
}

/** Wait at the gate, if any; a refusal stops the flow at this step. */
export async function passGate(gate: AuthGate | undefined, preview: AuthStepPreview): Promise<void> {
  try {
    await gate?.(preview);
  } catch (e) {
    throw e instanceof AuthError ? e : new AuthError(preview.step, (e as Error).message);
  }
}

/** A tracer that fetches with `doFetch` and reports frames to `sink` (none: nothing is reported). */
export function createAuthTracer(doFetch: Fetch, sink?: (frame: AuthFrame) => void, gate?: AuthGate): AuthTracer {
  let exchanges = 0;
  const open = new Set<() => void>();
  const emit = (f: AuthFrame) => {
    try {
      sink?.(f);
    } catch {
      /* a broken sink must not break the flow */
    }
  };
  return {
    async fetch(step, rule, url, init) {
      const method = init.method ?? 'GET';
      const sent = formBody(init.body);
      const headers = headerRecord(new Headers(init.headers));
      await passGate(gate, { step, rule, url, method, headers, ...(sent !== undefined ? { body: sent } : {}) });
      const exchangeId = `auth:${++exchanges}`;
      emit({
        direction: 'out',
        kind: 'http-request',
        exchangeId,
        lane: 'auth',
        auth: { step, rule, url, method },
        headers,
        ...(sent !== undefined ? { body: sent, raw: typeof init.body === 'string' ? init.body : String(init.body) } : {}),
      });
      const started = Date.now();
      const response = await doFetch(url, { ...init, redirect: 'manual', cache: 'no-store' });
      const text = await response
        .clone()
        .text()
        .catch(() => '');
      let json: unknown;
      try {
        json = text ? (JSON.parse(text) as unknown) : undefined;
      } catch {
        json = undefined;
      }
      let done = false;
      const report = (checks: AuthCheck[] = []) => {
        if (done) return;
        done = true;
        open.delete(report);
        emit({
          direction: 'in',
          kind: 'http-response',
          exchangeId,
          lane: 'auth',
          auth: { step, rule, url, method, checks },
          httpStatus: response.status,
          headers: headerRecord(response.headers),
          durationMs: Date.now() - started,
          ...(json !== undefined ? { body: json } : {}),
          ...(text ? { raw: text } : {}),
        });
      };
      open.add(report);
      return { response, text, json, report };
    },
    note(step, rule, checks, detail = {}) {
      emit({
        direction: 'in',
        kind: 'message',
        exchangeId: `auth:${++exchanges}`,
        lane: 'auth',
        auth: { step, rule, checks, ...(detail.url ? { url: detail.url } : {}) },
        ...(detail.body !== undefined ? { body: detail.body } : {}),
      });
    },
    flush() {
      for (const r of [...open]) r();
    },
  };
}
