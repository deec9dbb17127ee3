import { spawn, type ChildProcess } from 'node:child_process';
import type { StdioExit, StdioLog, StdioSpawn } from '../protocol/loupe-api';
import { childEnv } from './child-env';
import { splitLines } from './stdio-lines';

/**
 * One stdio child of the proxy and its output as SSE frames: `data:` per JSON stdout line, other
 * stdout and stderr lines as `event: log`, and last `event: exit`. Frames wait in the session
 * while no stream is attached.
 */

/** A live (or exited, not yet reaped) child of the stdio proxy. */
export interface StdioSession {
  readonly child: ChildProcess;
  /** Frames produced while no stream is attached. */
  frames: string[];
  /** The attached stream's writer. */
  sink?: (frame: string) => void;
  exited: boolean;
  lastUsed: number;
  /** Ends the attached stream (the child has closed). */
  end?: () => void;
}

/** The caps a session applies to its child's output. */
interface StdioSessionLimits {
  /** Longest line either way; a longer stdout line is dropped with a log frame. */
  maxLineBytes: number;
  /** Frames kept while no stream is attached. */
  maxBuffered: number;
}

/** Spawn a child and frame its output; the spawn error when it could not start. */
export async function spawnStdioSession(
  cmd: StdioSpawn,
  limits: StdioSessionLimits,
): Promise<{ ok: true; session: StdioSession } | { ok: false; error: Error }> {
  const { maxLineBytes: maxLine, maxBuffered } = limits;
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(cmd.command, cmd.args, { shell: false, cwd: cmd.cwd, env: childEnv(cmd.env), stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    // Node refuses some arguments before starting anything (a NUL byte, an env name with "="): a bad request, not a fault of ours.
    return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
  }
  const s: StdioSession = { child, frames: [], exited: false, lastUsed: Date.now() };
  const emit = (frame: string) => {
    if (s.sink) return s.sink(frame);
    if (s.frames.length < maxBuffered) s.frames.push(frame);
  };
  const log = (text: string, stream: StdioLog['stream']) => emit(`event: log\ndata: ${JSON.stringify({ stream, text } satisfies StdioLog)}\n\n`);
  splitLines(
    child.stdout!,
    maxLine,
    (line) => {
      if (!line.trim()) return;
      let ok = true;
      try {
        JSON.parse(line);
      } catch {
        ok = false;
      }
      emit(ok ? `data: ${line}\n\n` : `event: log\ndata: ${JSON.stringify({ stream: 'stdout', text: line } satisfies StdioLog)}\n\n`);
    },
    (bytes) => log(`stdout line of ${bytes} bytes dropped (limit ${maxLine})`, 'proxy'),
  );
  splitLines(
    child.stderr!,
    maxLine,
    (line) => log(line, 'stderr'),
    (bytes) => log(`stderr line of ${bytes} bytes dropped`, 'proxy'),
  );
  child.stdin!.on('error', () => {});
  const spawned = await new Promise<Error | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', (e) => resolve(e));
  });
  if (spawned) return { ok: false, error: spawned };
  child.on('error', (e) => log(e.message, 'proxy'));
  // 'close' (not 'exit'): stdout is drained by then, so the exit frame is the last one.
  child.once('close', (code, signal) => {
    s.exited = true;
    emit(`event: exit\ndata: ${JSON.stringify({ code, signal } satisfies StdioExit)}\n\n`);
    s.end?.();
  });
  return { ok: true, session: s };
}

/**
 * The session's SSE stream: the buffered frames, then live ones until the child closes or the
 * client leaves. `onExitedClose` runs when the stream closes after the child has exited.
 */
export function streamStdioSession(s: StdioSession, signal: AbortSignal | undefined, onExitedClose: () => void): Response {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const close = () => {
        if (!open) return;
        open = false;
        s.sink = undefined;
        s.lastUsed = Date.now();
        try {
          controller.close();
        } catch {
          /* already cancelled */
        }
        if (s.exited) onExitedClose();
      };
      s.sink = (frame) => open && controller.enqueue(enc.encode(frame));
      s.end = close;
      controller.enqueue(enc.encode(': stdio session\n\n'));
      for (const f of s.frames.splice(0)) controller.enqueue(enc.encode(f));
      if (s.exited) close();
      signal?.addEventListener('abort', close, { once: true });
    },
    cancel() {
      s.sink = undefined;
      s.lastUsed = Date.now();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' } });
}
