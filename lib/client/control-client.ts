import { z } from 'zod';
import {
  BUILTIN_HEADER,
  ApiErrorSchema,
  DeletedSchema,
  DuplicatedSchema,
  JournalPageSchema,
  ReportCardSchema,
  ResetSchema,
  ScenarioListSchema,
  ScenarioSavedSchema,
  ScenarioValidationSchema,
  SessionSchema,
  TaskListSchema,
  TaskReplySchema,
  type DuplicateRequest,
  type ScenarioIssue,
  type TaskAction,
  type TaskControlBody,
} from '../protocol/loupe-api';
import { LAUNCH_PATH, LaunchSchema } from '../protocol/launch-link';
import { apiKey, loupeFetch } from './api-key';

/**
 * A client for Loupe's control API (`/api/scenarios/...`), shared by the control room page and
 * the CLI. In the browser it calls same-origin paths and the HttpOnly cookie authenticates; the
 * CLI passes the base URL and the launch token. Every answer is parsed with zod; failures
 * (HTTP errors, refused saves, an unreachable server) come back as values, never thrown. The
 * messages themselves are defined once, beside the server's, in lib/protocol/loupe-api.ts, and
 * callers import their shapes from there.
 */

/** An answer of the control API: the parsed data, or why there is none. */
type ControlReply<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: string; issues: ScenarioIssue[] };

interface ControlClientOptions {
  /** Origin of the Loupe server (default: same origin). */
  baseUrl?: string;
  /** Launch token; leave out in the browser, where the cookie carries it. */
  token?: string;
  fetch?: typeof fetch;
}

/** Create a control API client. */
export function createControlClient(options: ControlClientOptions = {}) {
  const base = options.baseUrl ? new URL(options.baseUrl).origin : '';
  const send = options.fetch;
  const doFetch = (input: string, init: RequestInit) => loupeFetch(input, init, send);
  const path = (id: string, ...rest: string[]) => ['/api/scenarios', encodeURIComponent(id), ...rest].join('/');

  async function call<T>(url: string, init: RequestInit, read: (res: Response) => Promise<unknown>, schema: z.ZodType<T>): Promise<ControlReply<T>> {
    const headers = new Headers(init.headers);
    if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
    let res: Response;
    try {
      res = await doFetch(`${base}${url}`, { ...init, headers, cache: 'no-store' });
    } catch (e) {
      return { ok: false, status: 0, error: `Cannot reach Loupe: ${(e as Error).message}`, issues: [] };
    }
    if (!res.ok) {
      const body = ApiErrorSchema.safeParse(await res.json().catch(() => ({})));
      const data = body.success ? body.data : {};
      return { ok: false, status: res.status, error: data.error ?? `HTTP ${res.status}`, issues: data.issues ?? [] };
    }
    const parsed = schema.safeParse(await read(res).catch(() => undefined));
    if (!parsed.success)
      return { ok: false, status: res.status, error: `Unexpected answer from ${url}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, issues: [] };
    return { ok: true, status: res.status, data: parsed.data };
  }
  const getJson = <T>(url: string, schema: z.ZodType<T>) => call(url, { method: 'GET' }, (r) => r.json(), schema);
  const postJson = <T>(url: string, body: unknown, schema: z.ZodType<T>, method = 'POST') =>
    call(url, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }, (r) => r.json(), schema);
  const sendText = <T>(url: string, method: string, text: string, schema: z.ZodType<T>) =>
    call(url, { method, headers: { 'Content-Type': 'application/yaml' }, body: text }, (r) => r.json(), schema);

  return {
    /** Whether this browser (its cookie) or this client (its token) may use the control API. */
    session: () => getJson('/api/session', SessionSchema),
    /** The connection this launch was given on its command line, header values included (token-gated). */
    launch: () => getJson(LAUNCH_PATH, LaunchSchema),
    list: () => getJson('/api/scenarios', ScenarioListSchema),
    /** The scenario's YAML, and whether it is a (read-only) built-in. */
    source: (id: string) =>
      call(
        path(id, 'source'),
        { method: 'GET' },
        async (r) => ({ text: await r.text(), builtin: r.headers.get(BUILTIN_HEADER) === 'true' }),
        z.object({ text: z.string(), builtin: z.boolean() }),
      ),
    save: (id: string, text: string) => sendText(path(id, 'source'), 'PUT', text, ScenarioSavedSchema),
    validate: (text: string) => sendText('/api/scenarios/validate', 'POST', text, ScenarioValidationSchema),
    duplicate: (id: string, newId: string) => postJson(path(id, 'duplicate'), { newId } satisfies DuplicateRequest, DuplicatedSchema),
    remove: (id: string) => call(path(id), { method: 'DELETE' }, (r) => r.json(), DeletedSchema),
    reset: (id: string) => postJson(path(id, 'reset'), {}, ResetSchema),
    journal: (id: string, since = 0) => getJson(`${path(id, 'journal')}?since=${since}`, JournalPageSchema),
    reportCard: (id: string) => getJson(path(id, 'report-card'), ReportCardSchema),
    tasks: (id: string) => getJson(path(id, 'tasks'), TaskListSchema),
    task: (id: string, taskId: string, action: TaskAction, body: TaskControlBody = {}) =>
      postJson(path(id, 'tasks', encodeURIComponent(taskId), action), body, TaskReplySchema),
    /** URL of the scenario's event stream (EventSource cannot send headers, so the request key rides in the query). */
    eventsUrl: (id: string) => `${base}${path(id, 'events')}?key=${encodeURIComponent(apiKey())}`,
  };
}

/** A control API client. */
export type ControlClient = ReturnType<typeof createControlClient>;
