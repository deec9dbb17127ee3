import { randomBytes } from 'node:crypto';
import { readCapped } from '../engine/http-types';
import { describeIssues } from '../shared/zod-issues';
import { StdioSpawnSchema, type StdioStarted } from '../protocol/loupe-api';
import { spawnStdioSession, streamStdioSession, type StdioSession as Session } from './stdio-session';
import { json } from './respond';
import { parseJson } from '../shared/json';

/**
 * stdio servers through Loupe's proxy (node only). The router calls this behind the same gate
 * as `/api/proxy` (token + Origin + Host), so a child is spawned only for an authenticated
 * user's explicit command — never through a shell, so the command line is not interpreted.
 *
 *   POST   /api/proxy/stdio        {command, args?, env?, cwd?} → 201 {sessionId}
 *   GET    /api/proxy/stdio/<id>   SSE: `data:` per JSON stdout line; other stdout and stderr
 *                                  lines as `event: log`; last `event: exit` {code, signal}
 *   POST   /api/proxy/stdio/<id>   a JSON-RPC message → one stdin line (202)
 *   DELETE /api/proxy/stdio/<id>   close stdin, SIGTERM, SIGKILL after 2 s
 *
 * Caps: `maxSessions` live children, `maxLineBytes` per line either way (a longer stdout line
 * is dropped with a log frame), and every child killed when this process exits. A session is
 * only usable through its one stream, so once no stream is attached (the page went away, the
 * tab crashed) the child is killed after `detachedMs`. An attached one lives as long as its page.
 */

interface StdioProxyOptions {
  maxSessions?: number;
  maxLineBytes?: number;
  /** How long a session may go without its stream before its child is killed. */
  detachedMs?: number;
  killAfterMs?: number;
  /** Frames kept for a session while no stream is attached. */
  maxBuffered?: number;
}

/** Create the stdio proxy handler; `parts` are the path segments after `/api/proxy/stdio`. */
export function createStdioProxy(options: StdioProxyOptions = {}) {
  const maxSessions = options.maxSessions ?? 8;
  const maxLine = options.maxLineBytes ?? 4 * 1024 * 1024;
  const detachedMs = options.detachedMs ?? 15_000;
  const killAfter = options.killAfterMs ?? 2000;
  const maxBuffered = options.maxBuffered ?? 10_000;
  const sessions = new Map<string, Session>();
  const killAll = () => {
    for (const s of sessions.values()) s.child.kill('SIGKILL');
  };
  let reaper: NodeJS.Timeout | undefined;

  function stop(id: string, s: Session) {
    sessions.delete(id);
    if (sessions.size === 0) {
      process.off('exit', killAll);
      clearInterval(reaper);
      reaper = undefined;
    }
    if (s.exited) return;
    s.child.stdin?.end();
    s.child.kill('SIGTERM');
    setTimeout(() => s.child.exitCode === null && s.child.signalCode === null && s.child.kill('SIGKILL'), killAfter).unref();
  }

  async function start(req: Request): Promise<Response> {
    const text = await readCapped(req, 1024 * 1024).catch(() => undefined);
    if (text === undefined) return json(413, { error: 'Spawn request too large' });
    const body = parseJson(text);
    if (!body.ok) return json(400, { error: `Body is not JSON: ${body.message}` });
    const parsed = StdioSpawnSchema.safeParse(body.value);
    if (!parsed.success) return json(400, { error: `Invalid spawn request: ${describeIssues(parsed.error, 'request')}` });
    if ([...sessions.values()].filter((v) => !v.exited).length >= maxSessions)
      return json(429, { error: `At most ${maxSessions} stdio sessions may run at once` });
    const spawned = await spawnStdioSession(parsed.data, { maxLineBytes: maxLine, maxBuffered });
    if (!spawned.ok) return json(400, { error: `Failed to spawn ${parsed.data.command}: ${spawned.error.message}` });
    const id = randomBytes(24).toString('base64url');
    if (sessions.size === 0) {
      process.once('exit', killAll);
      reaper = setInterval(
        () => {
          // Detached: no stream since lastUsed (the stream's close stamps it; an exited child's too).
          for (const [k, v] of sessions) if (!v.sink && Date.now() - v.lastUsed > detachedMs) stop(k, v);
        },
        Math.max(250, Math.min(detachedMs, 60_000) / 3),
      );
      reaper.unref();
    }
    sessions.set(id, spawned.session);
    return json(201, { sessionId: id } satisfies StdioStarted);
  }

  function stream(id: string, s: Session, req: Request): Response {
    if (s.sink) return json(409, { error: 'This session already has a stream' });
    return streamStdioSession(s, req.signal, () => sessions.delete(id));
  }

  async function write(s: Session, req: Request): Promise<Response> {
    const text = await readCapped(req, maxLine).catch(() => undefined);
    if (text === undefined) return json(413, { error: `Message larger than ${maxLine} bytes` });
    const message = parseJson(text);
    if (!message.ok) return json(400, { error: `Body is not JSON: ${message.message}` });
    if (s.exited || !s.child.stdin?.writable) return json(410, { error: 'The process has exited' });
    s.lastUsed = Date.now();
    s.child.stdin.write(`${JSON.stringify(message.value)}\n`);
    return new Response(null, { status: 202 });
  }

  async function handle(req: Request, parts: string[]): Promise<Response> {
    const [id, ...extra] = parts;
    if (id === undefined) return req.method === 'POST' ? start(req) : json(405, { error: 'Use POST to start a stdio session' });
    const s = extra.length === 0 ? sessions.get(id) : undefined;
    if (!s) return json(404, { error: 'Unknown stdio session' });
    if (req.method === 'GET') return stream(id, s, req);
    if (req.method === 'POST') return write(s, req);
    if (req.method === 'DELETE') {
      stop(id, s);
      return new Response(null, { status: 204 });
    }
    return json(405, { error: `Method ${req.method} not allowed` });
  }

  return {
    handle,
    close: killAll,
    get size() {
      return sessions.size;
    },
  };
}
