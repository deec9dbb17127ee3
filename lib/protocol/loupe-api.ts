import { z } from 'zod';

/**
 * Loupe's own HTTP API (not MCP): every message its server (lib/server) and its clients
 * (lib/client, the CLI, the pages) exchange, written once. The server parses request bodies with
 * these schemas and types its answers with them; clients build requests with the types and
 * parse answers with the schemas. Browser-safe: zod only.
 *
 *   /api/session          whether the caller holds the launch token (the pages ask before showing controls)
 *   /api/scenarios/**     the control API: scenario files, journal, tasks, report card
 *   /api/recordings/**    saved recordings and recordings served as mocks
 *   /api/proxy            the HTTP proxy: a JSON envelope in, the upstream's answer out
 *   /api/proxy/stdio/**   the stdio proxy: spawn, stdin lines, an SSE stream of stdout
 */

/** The HTTP proxy's path (token-gated). */
export const PROXY_PATH = '/api/proxy';
/** The stdio proxy's base path; a session lives at `<base>/<sessionId>`. */
export const STDIO_PROXY_PATH = '/api/proxy/stdio';
/** The MCP Apps sandbox page, served on the inspector's other loopback name. */
export const SANDBOX_PROXY_PATH = '/sandbox/proxy.html';
/** Header a proxy refusal carries, so it is not mistaken for the upstream's own status. */
export const PROXY_ERROR_HEADER = 'x-loupe-proxy-error';
/**
 * Where the proxy carries an upstream 401's `WWW-Authenticate` when it names a scheme the browser
 * answers itself (Basic, Digest, NTLM, Negotiate): relayed as is, it would make the browser pop a
 * sign-in dialog in Loupe's name, with the upstream's words as its realm. The page's client puts
 * it back (lib/client/proxy-answer.ts), so the timeline and the OAuth flow see it as sent.
 */
export const PROXY_CHALLENGE_HEADER = 'x-loupe-upstream-www-authenticate';
/**
 * The one size rule for what an inspected server sends toward the page: the page keeps at most
 * this many bytes of any one answer, a JSON body or an SSE stream alike, and cuts it there with
 * the reason on the timeline (lib/client/http-response.ts). Every answer becomes timeline frames,
 * a recording and a view, so an answer that never ends must not grow the page without bound.
 * The CLI sets none (lib/client/headless.ts): a terminal holds one message at a time.
 */
export const ANSWER_BYTE_BUDGET = 16 * 1024 * 1024;
/**
 * What the proxy passes on of any one answer: twice the page's budget, so through the proxy it is
 * still the page that cuts, with its own message (a proxy cut at the same byte ends the relayed
 * response abruptly, and the browser reports that as a network error before the page has counted
 * past its budget). Beyond it a JSON body is refused (`too-large`) and a stream is cut with a
 * notice: the bound of what the server process holds or relays for a client that sets no budget.
 */
export const PROXY_ANSWER_BYTES = 2 * ANSWER_BYTE_BUDGET;
/**
 * Header every call of Loupe's pages to its API carries: the session's request key (see
 * lib/server/launch-access.ts). A form, a navigation or a followed redirect cannot add it.
 */
export const LOUPE_REQUEST_HEADER = 'X-Loupe-Request';
/** Header of a scenario's source: `true` for a read-only built-in. */
export const BUILTIN_HEADER = 'X-Loupe-Builtin';

/** `GET /api/session`: answered without the token (that is the question), still Host- and Origin-checked. */
export const SessionSchema = z.object({ authenticated: z.boolean() });
export type Session = z.infer<typeof SessionSchema>;
/** `POST /api/links`: a one-time value for a sign-in link `/?token=<link>`. */
export const SignInLinkSchema = z.object({ link: z.string().min(1) });
export type SignInLink = z.infer<typeof SignInLinkSchema>;

// The control API: scenarios.

/** One problem in a scenario file, at its 1-based line and column. */
const ScenarioIssueSchema = z.object({ source: z.string(), line: z.number(), column: z.number(), path: z.string(), message: z.string() });
export type ScenarioIssue = z.infer<typeof ScenarioIssueSchema>;

/** A refusal of Loupe's API (status ≥ 400): why; a refused scenario save's issues; a task asked of the wrong scenario, its own. */
export const ApiErrorSchema = z.looseObject({ error: z.string().optional(), issues: z.array(ScenarioIssueSchema).optional(), scenario: z.string().optional() });
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** One row of `GET /api/scenarios`. `valid` is false for a saved file that no longer validates. */
const ScenarioSummarySchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  builtin: z.boolean(),
  valid: z.boolean(),
  /** The file it was given as on the command line (`open --scenario FILE`, `mock FILE`); read-only like a built-in. */
  file: z.string().optional(),
});
export type ScenarioSummary = z.infer<typeof ScenarioSummarySchema>;

/** `GET /api/scenarios`. */
export const ScenarioListSchema = z.object({ scenarios: z.array(ScenarioSummarySchema) });
export type ScenarioList = z.infer<typeof ScenarioListSchema>;

/** `GET /api/scenarios/<id>`: the running scenario. */
const ScenarioInfoSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  tools: z.array(z.string()),
  ledgerExecutions: z.number(),
});
export type ScenarioInfo = z.infer<typeof ScenarioInfoSchema>;

/** `POST /api/scenarios/validate` (body: the scenario text). */
export const ScenarioValidationSchema = z.object({ ok: z.boolean(), errors: z.array(ScenarioIssueSchema), warnings: z.array(ScenarioIssueSchema).default([]) });
export type ScenarioValidation = z.infer<typeof ScenarioValidationSchema>;

/** `PUT /api/scenarios/<id>/source` (body: the scenario text). */
export const ScenarioSavedSchema = z.looseObject({ saved: z.string(), warnings: z.array(ScenarioIssueSchema).default([]) });
export type ScenarioSaved = z.infer<typeof ScenarioSavedSchema>;

/** Body of `POST /api/scenarios/<id>/duplicate`. */
export const DuplicateRequestSchema = z.object({ newId: z.string() });
export type DuplicateRequest = z.infer<typeof DuplicateRequestSchema>;

/** Answer of `POST /api/scenarios/<id>/duplicate` (201). */
export const DuplicatedSchema = z.looseObject({ id: z.string() });
export type Duplicated = z.infer<typeof DuplicatedSchema>;

/** Answer of `DELETE /api/scenarios/<id>`. */
export const DeletedSchema = z.looseObject({ deleted: z.string() });
export type Deleted = z.infer<typeof DeletedSchema>;
/** Answer of `POST /api/scenarios/<id>/reset`. */
export const ResetSchema = z.looseObject({ reset: z.string() });
export type Reset = z.infer<typeof ResetSchema>;

// The control API: journal, tasks, report card.

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
  /** In a fleet: the instance that served the exchange. */
  instance: z.string().optional(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/** `GET /api/scenarios/<id>/journal?since=N`. */
export const JournalPageSchema = z.object({ entries: z.array(JournalEntrySchema) });

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

/** `GET /api/scenarios/<id>/tasks`. */
export const TaskListSchema = z.object({ tasks: z.array(TaskSnapshotSchema) });
/** `GET /api/scenarios/<id>/tasks/<taskId>` and the answer of a task action. */
export const TaskReplySchema = z.object({ task: TaskSnapshotSchema });

/** What `POST /api/scenarios/<id>/tasks/<taskId>/<action>` can do to a task. */
export const TASK_ACTIONS = ['advance', 'complete', 'fail', 'cancel', 'expire', 'require-input'] as const;
/** One of {@link TASK_ACTIONS}. */
export const TaskActionSchema = z.enum(TASK_ACTIONS);
export type TaskAction = z.infer<typeof TaskActionSchema>;

/**
 * Body of a task action (a JSON object, `{}` when empty): the result a `complete` sets, the error
 * a `fail` sets, the input requests a `require-input` asks. The engine takes them as given.
 */
export const TaskControlBodySchema = z.object({ result: z.unknown().optional(), error: z.unknown().optional(), inputRequests: z.unknown().optional() });
export type TaskControlBody = z.infer<typeof TaskControlBodySchema>;

/** The first event of `GET /api/scenarios/<id>/events`, and `GET /api/scenarios/<id>/snapshot`. */
export const ScenarioSnapshotSchema = z.object({ scenarioId: z.string(), entries: z.array(JournalEntrySchema), tasks: z.array(TaskSnapshotSchema) });

/** One graded check of the report card, with the journal entries it rests on. */
const GradeSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  status: z.enum(['pass', 'fail', 'not-observed']),
  detail: z.string().default(''),
  evidence: z.array(z.number()).default([]),
  specRef: z.string().optional(),
});
export type Grade = z.infer<typeof GradeSchema>;

/** `GET /api/scenarios/<id>/report-card`. */
export const ReportCardSchema = z.looseObject({ generatedAt: z.union([z.string(), z.number()]).optional(), grades: z.array(GradeSchema) });
export type ReportCard = z.infer<typeof ReportCardSchema>;

// The control API: recordings.

/** One row of `GET /api/recordings` (newest first). */
const RecordingFileSummarySchema = z.object({ name: z.string(), bytes: z.number(), modifiedAt: z.string() });
export type RecordingFileSummary = z.infer<typeof RecordingFileSummarySchema>;
/** `GET /api/recordings`. */
export const RecordingListSchema = z.object({ recordings: z.array(RecordingFileSummarySchema) });
export type RecordingList = z.infer<typeof RecordingListSchema>;

/** Answer of `PUT /api/recordings/<name>` (body: the recording document). */
const RecordingSavedSchema = z.object({ saved: z.string(), frames: z.number() });
export type RecordingSaved = z.infer<typeof RecordingSavedSchema>;

/** Body of `POST /api/recordings/<name>/rename`: the new file name. */
export const RecordingRenameSchema = z.object({ to: z.string().min(1).max(200) });
/** Answer of that rename (`{ renamed: <new name> }`) and of `DELETE /api/recordings/<name>` (`{ deleted: <name> }`). */
export const RecordingRenamedSchema = z.object({ renamed: z.string() });

/** Answer of `POST /api/recordings/replay` (201): where the recording is served as a mock. */
export const ReplayStartedSchema = z.object({ id: z.string(), path: z.string(), exchanges: z.number() });
export type ReplayStarted = z.infer<typeof ReplayStartedSchema>;

// The proxies.

/** Body of `POST /api/proxy`: the request to send upstream. */
export const ProxyEnvelopeSchema = z.object({
  url: z.string().min(1),
  method: z.enum(['POST', 'GET', 'DELETE']).default('POST'),
  headers: z.record(z.string(), z.string()).default({}),
  body: z.string().optional(),
});
export type ProxyEnvelope = z.infer<typeof ProxyEnvelopeSchema>;

/** Body of `POST /api/proxy/stdio`: the command to spawn (never through a shell). */
// The operating system takes strings up to the first NUL byte, so Node refuses any that hold one.
const noNul = (what: string) => z.string().refine((v) => !v.includes('\0'), `${what} must not contain a NUL byte`);
export const StdioSpawnSchema = z.object({
  command: noNul('the command').pipe(z.string().min(1)),
  args: z.array(noNul('an argument')).default([]),
  env: z.record(noNul('a variable name').pipe(z.string().regex(/^[^=]+$/, 'a variable name must be non-empty, without "="')), noNul('a value')).optional(),
  cwd: noNul('the working directory').optional(),
});
export type StdioSpawn = z.infer<typeof StdioSpawnSchema>;

/** Answer of `POST /api/proxy/stdio` (201). */
export const StdioStartedSchema = z.object({ sessionId: z.string().min(1) });
export type StdioStarted = z.infer<typeof StdioStartedSchema>;

/** `event: log` of a stdio stream: a stdout line that is not JSON, a stderr line, or the proxy's own note. */
export const StdioLogSchema = z.object({ stream: z.enum(['stdout', 'stderr', 'proxy']), text: z.string() });
export type StdioLog = z.infer<typeof StdioLogSchema>;

/** `event: exit` of a stdio stream, its last frame. */
export const StdioExitSchema = z.object({ code: z.number().nullable(), signal: z.string().nullable() });
export type StdioExit = z.infer<typeof StdioExitSchema>;
