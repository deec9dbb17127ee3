import { z } from 'zod';

/**
 * A client for Loupe's control API (`/api/scenarios/...`), shared by the control room page and
 * the CLI. In the browser it calls same-origin paths and the HttpOnly cookie authenticates; the
 * CLI passes the base URL and the launch token. Every answer is parsed with zod; failures
 * (HTTP errors, refused saves, an unreachable server) come back as values, never thrown.
 */

/** One problem in a scenario file, at its 1-based line and column. */
export const ScenarioIssueSchema = z.object({ source: z.string(), line: z.number(), column: z.number(), path: z.string(), message: z.string() });
export type ScenarioIssue = z.infer<typeof ScenarioIssueSchema>;

export const ScenarioSummarySchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  builtin: z.boolean(),
  valid: z.boolean(),
});
export type ScenarioSummary = z.infer<typeof ScenarioSummarySchema>;

/** A journal entry as the control API sends it (fields the page does not use pass through). */
export const JournalEntrySchema = z.looseObject({
  seq: z.number().int(),
  at: z.number(),
  method: z.string().optional(),
  id: z.unknown().optional(),
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.unknown(),
  status: z.number().optional(),
  responseBody: z.unknown().optional(),
  streamed: z.boolean(),
  frames: z.array(z.unknown()).optional(),
  end: z.string().optional(),
  fault: z.string().optional(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/** A live task as the control API sends it (the stored record). */
export const TaskSnapshotSchema = z.looseObject({
  taskId: z.string(),
  toolName: z.string(),
  status: z.string(),
  statusMessage: z.string().optional(),
  createdAt: z.number(),
  lastUpdatedAt: z.number(),
  ttlMs: z.number().nullable().optional(),
  pollIntervalMs: z.number().optional(),
  revision: z.number().optional(),
  inputRequests: z.record(z.string(), z.unknown()).optional(),
});
export type TaskSnapshot = z.infer<typeof TaskSnapshotSchema>;

export const GradeSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  status: z.enum(['pass', 'fail', 'not-observed']),
  detail: z.string().default(''),
  evidence: z.array(z.number()).default([]),
  specRef: z.string().optional(),
});
export type Grade = z.infer<typeof GradeSchema>;

export const ReportCardSchema = z.looseObject({ generatedAt: z.union([z.string(), z.number()]).optional(), grades: z.array(GradeSchema) });
export type ReportCard = z.infer<typeof ReportCardSchema>;

const ValidationSchema = z.object({ ok: z.boolean(), errors: z.array(ScenarioIssueSchema), warnings: z.array(ScenarioIssueSchema).default([]) });
const ErrorBodySchema = z.looseObject({ error: z.string().optional(), issues: z.array(ScenarioIssueSchema).optional() });

/** An answer of the control API: the parsed data, or why there is none. */
export type ControlReply<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: string; issues: ScenarioIssue[] };

export interface ControlClientOptions {
  /** Origin of the Loupe server (default: same origin). */
  baseUrl?: string;
  /** Launch token; leave out in the browser, where the cookie carries it. */
  token?: string;
  fetch?: typeof fetch;
}

export type TaskAction = 'advance' | 'complete' | 'fail' | 'cancel' | 'expire' | 'require-input';

/** Create a control API client. */
export function createControlClient(options: ControlClientOptions = {}) {
  const base = options.baseUrl ? new URL(options.baseUrl).origin : '';
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const path = (id: string, ...rest: string[]) => ['/api/scenarios', encodeURIComponent(id), ...rest].join('/');

  async function call<T>(url: string, init: RequestInit, read: (res: Response) => Promise<unknown>, schema: z.ZodType<T>): Promise<ControlReply<T>> {
    const headers = new Headers(init.headers);
    if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
    let res: Response;
    try {
      res = await doFetch(`${base}${url}`, { ...init, headers, cache: 'no-store', credentials: 'same-origin' });
    } catch (e) {
      return { ok: false, status: 0, error: `Cannot reach Loupe: ${(e as Error).message}`, issues: [] };
    }
    if (!res.ok) {
      const body = ErrorBodySchema.safeParse(await res.json().catch(() => ({})));
      const data = body.success ? body.data : {};
      return { ok: false, status: res.status, error: data.error ?? `HTTP ${res.status}`, issues: data.issues ?? [] };
    }
    const parsed = schema.safeParse(await read(res).catch(() => undefined));
    if (!parsed.success) return { ok: false, status: res.status, error: `Unexpected answer from ${url}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, issues: [] };
    return { ok: true, status: res.status, data: parsed.data };
  }
  const getJson = <T>(url: string, schema: z.ZodType<T>) => call(url, { method: 'GET' }, (r) => r.json(), schema);
  const postJson = <T>(url: string, body: unknown, schema: z.ZodType<T>, method = 'POST') =>
    call(url, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }, (r) => r.json(), schema);
  const sendText = <T>(url: string, method: string, text: string, schema: z.ZodType<T>) =>
    call(url, { method, headers: { 'Content-Type': 'application/yaml' }, body: text }, (r) => r.json(), schema);

  return {
    list: () => getJson('/api/scenarios', z.object({ scenarios: z.array(ScenarioSummarySchema) })),
    /** The scenario's YAML, and whether it is a (read-only) built-in. */
    source: (id: string) =>
      call(path(id, 'source'), { method: 'GET' }, async (r) => ({ text: await r.text(), builtin: r.headers.get('x-loupe-builtin') === 'true' }), z.object({ text: z.string(), builtin: z.boolean() })),
    save: (id: string, text: string) => sendText(path(id, 'source'), 'PUT', text, z.looseObject({ saved: z.string(), warnings: z.array(ScenarioIssueSchema).default([]) })),
    validate: (text: string) => sendText('/api/scenarios/validate', 'POST', text, ValidationSchema),
    duplicate: (id: string, newId: string) => postJson(path(id, 'duplicate'), { newId }, z.looseObject({ id: z.string() })),
    remove: (id: string) => call(path(id), { method: 'DELETE' }, (r) => r.json(), z.looseObject({ deleted: z.string() })),
    reset: (id: string) => postJson(path(id, 'reset'), {}, z.looseObject({ reset: z.string() })),
    journal: (id: string, since = 0) => getJson(`${path(id, 'journal')}?since=${since}`, z.object({ entries: z.array(JournalEntrySchema) })),
    reportCard: (id: string) => getJson(path(id, 'report-card'), ReportCardSchema),
    tasks: (id: string) => getJson(path(id, 'tasks'), z.object({ tasks: z.array(TaskSnapshotSchema) })),
    task: (id: string, taskId: string, action: TaskAction, body: Record<string, unknown> = {}) =>
      postJson(path(id, 'tasks', encodeURIComponent(taskId), action), body, z.object({ task: TaskSnapshotSchema })),
    /** URL of the scenario's event stream (EventSource; same-origin in the browser). */
    eventsUrl: (id: string) => `${base}${path(id, 'events')}`,
  };
}

/** A control API client. */
export type ControlClient = ReturnType<typeof createControlClient>;
