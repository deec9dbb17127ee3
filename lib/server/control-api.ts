import type { MockEngine } from '../engine';
import {
  BUILTIN_HEADER,
  DuplicateRequestSchema,
  TaskActionSchema,
  TaskControlBodySchema,
  type ApiError,
  type Deleted,
  type Duplicated,
  type Reset,
  type ScenarioInfo,
  type ScenarioList,
  type ScenarioSaved,
  type Session,
  type SignInLink,
} from '../protocol/loupe-api';
import type { Launch, LaunchConnection } from '../protocol/launch-link';
import { checkControlAccess } from './control-auth';
import type { LaunchAccess } from './launch-access';
import { publicEntry, scenarioEventStream, snapshotOf } from './control-events';
import { isDiskFull } from '../shared/fs-reasons';
import type { MockHost } from './mock-host';
import { recordingRoutes } from './recording-routes';
import { isScenarioId, MAX_SCENARIO_BYTES, type FileRefusal } from './scenario-files';
import { json, readText } from './respond';
import { createTapRegistry } from './tap-registry';
import { tapRoutes } from './tap-routes';
import { parseJson } from '../shared/json';
import { isTerminalStatus } from '../shared/task-status';
import { controlActionOf, controlConflict } from './task-control-body';

/**
 * The control API under `/api/`, behind {@link checkControlAccess}:
 *
 *   GET    /api/session                            { authenticated }: the one route answered without the token
 *   GET    /api/launch                             the connection the command line asked for, header values included
 *   POST   /api/links                              { link }: a new one-time sign-in value for `/?token=` (`mcp-loupe link`)
 *   GET    /api/scenarios                          list (id, name, description, builtin, valid)
 *   POST   /api/scenarios/validate                 body: scenario text → { ok, errors, warnings }
 *   GET    /api/scenarios/<id>                     summary of the running scenario
 *   DELETE /api/scenarios/<id>                     delete a saved scenario
 *   GET    /api/scenarios/<id>/source              YAML text
 *   PUT    /api/scenarios/<id>/source              save (422 with the issues when invalid)
 *   POST   /api/scenarios/<id>/duplicate           { newId } → copy under a new id
 *   POST   /api/scenarios/<id>/reset               reset state, tasks, ledger, nonces, journal
 *   GET    /api/scenarios/<id>/journal?since=N     journal entries after seq N
 *   GET    /api/scenarios/<id>/events              SSE: snapshot, journal:entry, task:*, scenario:*
 *   GET    /api/scenarios/<id>/report-card         the client report card
 *   GET    /api/scenarios/<id>/tasks[/<taskId>]    live tasks
 *   POST   /api/scenarios/<id>/tasks/<taskId>/<advance|complete|fail|cancel|expire|require-input>
 *   GET|PUT|DELETE /api/recordings[/<name>], POST …/<name>/rename, POST /api/recordings/replay   recordings (see recording-routes.ts)
 *   /api/taps/...                           live taps: registration, frames, fault switches (see tap-routes.ts)
 */

interface ControlApiOptions {
  access: LaunchAccess;
  allowedHosts?: string[];
  keepAliveMs?: number;
  /** What `GET /api/launch` answers (`mcp-loupe --url`, `mcp-loupe -- command`). */
  launch?: LaunchConnection;
}

/** Handles `/api/<parts...>` (parts already decoded). */
type ControlApi = (req: Request, parts: string[]) => Promise<Response>;

const REFUSAL_STATUS: Record<FileRefusal['reason'], number> = {
  'invalid-id': 400,
  builtin: 409,
  exists: 409,
  'not-found': 404,
  'too-large': 413,
  invalid: 422,
};

const refusal = (r: FileRefusal) => json(REFUSAL_STATUS[r.reason], { error: r.message, ...(r.issues ? { issues: r.issues } : {}) } satisfies ApiError);

/** A JSON body (an empty one reads as `{}`); undefined when it is too large or not JSON. */
async function readJson(req: Request): Promise<unknown> {
  const text = await readText(req, 64 * 1024);
  if (text === undefined) return undefined;
  if (!text) return {};
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
}

/** The report card when the engine has one (it is computed from the journal on demand). */
type WithReportCard = MockEngine & { reportCard?: () => unknown };

/** Create the control API handler for a host. */
export function createControlApi(host: MockHost, options: ControlApiOptions): ControlApi {
  const taps = createTapRegistry();
  async function scenarioRoutes(req: Request, id: string, rest: string[]): Promise<Response> {
    const route = rest[0] ?? '';
    if (route === 'source' && rest.length === 1) {
      if (req.method === 'GET') {
        const source = host.scenarios.source(id);
        if (!source) return json(404, { error: `Unknown scenario: ${id}` });
        return new Response(source.text, {
          status: 200,
          headers: { 'Content-Type': 'application/yaml; charset=utf-8', 'Cache-Control': 'no-store', [BUILTIN_HEADER]: String(source.builtin) },
        });
      }
      if (req.method === 'PUT') {
        const text = await readText(req, MAX_SCENARIO_BYTES);
        if (text === undefined) return json(413, { error: `Scenario is larger than ${MAX_SCENARIO_BYTES} bytes` });
        const saved = host.saveScenario(id, text);
        return saved.ok ? json(200, { saved: id, warnings: saved.warnings } satisfies ScenarioSaved) : refusal(saved);
      }
    }
    if (route === 'duplicate' && rest.length === 1 && req.method === 'POST') {
      const body = DuplicateRequestSchema.safeParse(await readJson(req));
      if (!body.success) return json(400, { error: 'Body must be JSON: {"newId": "my-copy"}' });
      const copied = host.scenarios.duplicate(id, body.data.newId);
      return copied.ok ? json(201, { id: copied.id, warnings: copied.warnings } satisfies Duplicated) : refusal(copied);
    }
    if (route === '' && req.method === 'DELETE') {
      const removed = host.deleteScenario(id);
      return removed.ok ? json(200, { deleted: id } satisfies Deleted) : refusal(removed);
    }
    const engine = host.engine(id) as WithReportCard | undefined;
    if (!engine) {
      const exists = host.scenarios.source(id) !== undefined;
      return json(404, { error: exists ? `Scenario ${id} does not validate; fix its file to run it` : `Unknown scenario: ${id}` });
    }
    if (route === '' && req.method === 'GET') {
      const s = engine.scenario;
      return json(200, {
        id: s.id,
        name: s.name,
        description: s.description,
        tools: s.tools.map((t) => t.name),
        ledgerExecutions: await host.stores.ledger.executions(s.id),
      } satisfies ScenarioInfo);
    }
    if (route === 'reset' && req.method === 'POST') {
      await engine.reset();
      return json(200, { reset: engine.scenario.id } satisfies Reset);
    }
    if (route === 'journal' && req.method === 'GET') {
      // A since that is no seq is refused: read as 0, it sent the whole journal again to a
      // caller that believed it asked for what was new.
      const asked = new URL(req.url).searchParams.get('since');
      if (asked !== null && !/^\d{1,15}$/.test(asked))
        return json(400, { error: `since must be a whole number, 0 or more (the seq of the last entry you have), got "${asked.slice(0, 40)}"` });
      const since = asked === null ? 0 : Number(asked);
      // A fleet's instance shows every instance's finished exchanges (seq is the fleet's).
      const entries = engine.fleetJournal ? await engine.fleetJournal(since) : engine.journal.entries(since);
      return json(200, { entries: entries.map(publicEntry) });
    }
    if (route === 'snapshot' && req.method === 'GET') return json(200, await snapshotOf(engine));
    if (route === 'events' && req.method === 'GET') return scenarioEventStream(host, id, req.signal, { keepAliveMs: options.keepAliveMs });
    if (route === 'report-card' && req.method === 'GET') {
      if (typeof engine.reportCard !== 'function') return json(501, { error: 'The report card is not available in this build' });
      // A fleet's instance grades every instance's traffic (the journal in the shared store).
      return json(200, typeof engine.fleetReportCard === 'function' ? await engine.fleetReportCard() : engine.reportCard());
    }
    if (route === 'tasks') return taskRoutes(req, engine, rest.slice(1));
    return json(404, { error: `No control route ${req.method} /api/scenarios/${id}/${rest.join('/')}` });
  }

  async function taskRoutes(req: Request, engine: MockEngine, rest: string[]): Promise<Response> {
    const noRoute = () => json(404, { error: `No control route ${req.method} /api/scenarios/${engine.scenario.id}/tasks/${rest.join('/')}` });
    const [taskId, actionName] = rest;
    if (taskId === undefined) return req.method === 'GET' ? json(200, { tasks: await engine.tasks.list() }) : noRoute();
    if (rest.length === 1 && req.method === 'GET') {
      const t = await engine.tasks.get(taskId);
      return t ? json(200, { task: t }) : unknownTask(engine, taskId);
    }
    const action = TaskActionSchema.safeParse(actionName);
    if (rest.length === 2 && req.method === 'POST' && action.success) {
      const parsed = TaskControlBodySchema.safeParse(await readJson(req));
      if (!parsed.success) return json(400, { error: 'Body must be a JSON object' });
      const act = controlActionOf(action.data, parsed.data);
      if (!act.ok) return json(400, { error: act.error });
      // A finished task never changes again: saying 200 "is now completed" to a fail hid that
      // nothing happened. Expire still deletes it.
      const before = action.data === 'expire' ? undefined : await engine.tasks.get(taskId);
      if (before && isTerminalStatus(before.status)) return json(409, { error: `Task is already ${before.status}: ${action.data} changes nothing` });
      const conflict = before && controlConflict(before, act.act);
      if (conflict) return json(409, { error: conflict });
      const rec = await engine.tasks.control(taskId, act.act);
      return rec ? json(200, { task: rec }) : unknownTask(engine, taskId);
    }
    return noRoute();
  }

  /** 404 for a task this scenario does not have. The store is every scenario's: name the one that has it, so a caller can go there. */
  async function unknownTask(engine: MockEngine, taskId: string): Promise<Response> {
    const owner = (await host.stores.tasks.get(taskId))?.scenarioId;
    if (owner === undefined || owner === engine.scenario.id) return json(404, { error: 'Unknown task' });
    return json(404, { error: `Task belongs to scenario ${owner}, not ${engine.scenario.id}`, scenario: owner } satisfies ApiError);
  }

  const route: ControlApi = async (req, parts) => {
    const denied = checkControlAccess(req, options.access, options.allowedHosts);
    // Pages are static files now, so they ask here whether to show controls or the token hint.
    if (parts[0] === 'session' && parts.length === 1 && req.method === 'GET' && denied?.status !== 403)
      return json(200, { authenticated: !denied } satisfies Session);
    if (denied) return json(denied.status, { error: denied.error });
    // Header values live here, behind the token, never in the page URL that names the connection.
    if (parts[0] === 'launch' && parts.length === 1 && req.method === 'GET') return json(200, { connection: options.launch ?? null } satisfies Launch);
    if (parts[0] === 'links' && parts.length === 1 && req.method === 'POST') return json(201, { link: options.access.mintLink() } satisfies SignInLink);
    if (parts[0] === 'recordings') return recordingRoutes(req, host, parts.slice(1), options.allowedHosts);
    if (parts[0] === 'taps') return tapRoutes(req, taps, parts.slice(1), options.keepAliveMs);
    if (parts[0] !== 'scenarios') return json(404, { error: `No control route /api/${parts.join('/')}` });
    if (parts.length === 1 && req.method === 'GET') return json(200, { scenarios: host.scenarios.list() } satisfies ScenarioList);
    if (parts.length === 2 && parts[1] === 'validate' && req.method === 'POST') {
      const text = await readText(req, MAX_SCENARIO_BYTES);
      if (text === undefined) return json(413, { error: `Scenario is larger than ${MAX_SCENARIO_BYTES} bytes` });
      return json(200, host.scenarios.validate(text, new URL(req.url).searchParams.get('source') ?? 'scenario.yaml'));
    }
    const id = parts[1];
    if (id === undefined) return json(404, { error: `No control route ${req.method} /api/scenarios` });
    if (!isScenarioId(id)) return json(400, { error: `Invalid scenario id "${id}": use lowercase letters, digits and dashes` });
    return scenarioRoutes(req, id, parts.slice(2));
  };

  // A failed write (full disk, a file where a directory should be) answers in the control API's
  // own shape: the node front's JSON-RPC error read as "HTTP 500" in the page, its message lost.
  return async (req, parts) => {
    try {
      return await route(req, parts);
    } catch (e) {
      return json(isDiskFull(e) ? 507 : 500, { error: e instanceof Error ? e.message : String(e) });
    }
  };
}
