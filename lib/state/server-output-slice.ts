import type { StdioOutput } from '../client/stdio-proxy-transport';
import { perAnimationFrame } from './per-animation-frame';
import type { SliceGet, SliceSet } from './slice';

/**
 * What a stdio server wrote besides its messages: stderr (where its errors and stack traces go),
 * stdout lines that are not JSON, the proxy's own notes (a line dropped for size), and how the
 * process ended. The connection slice feeds it from the stdio transport; the "Server output" tab
 * and the connection error show it. Bounded: the newest lines are kept, each cut to a length
 * that renders, and lines arriving in a burst land in one store update per animation frame.
 */

/** One line of output, stamped with when it came and the connect (epoch) whose child wrote it. */
export interface OutputLine {
  seq: number;
  at: number;
  epoch: number;
  /** `exit` is the line Loupe adds when the process ends. */
  stream: 'stdout' | 'stderr' | 'proxy' | 'exit';
  text: string;
}

interface ServerOutputState {
  /** Oldest first, at most MAX_OUTPUT_LINES. */
  lines: OutputLine[];
  /** Lines let go to stay within the bound. */
  dropped: number;
  push(epoch: number, output: StdioOutput, text?: string): void;
  clear(): void;
}

/** The server output part of the inspector state. */
export interface ServerOutputSlice {
  serverOutput: ServerOutputState;
}

export const MAX_OUTPUT_LINES = 1000;
/** A line longer than this (the proxy passes up to 4 MiB) is cut: the start says what happened. */
const MAX_LINE_CHARS = 4000;

function cut(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… (${text.length - MAX_LINE_CHARS} more characters)` : text;
}

/** The server output slice; `now` stamps lines (default Date.now). */
export function createServerOutputSlice(set: SliceSet<ServerOutputSlice>, _get: SliceGet<ServerOutputSlice>, now: () => number = Date.now): ServerOutputSlice {
  let seq = 0;
  let pending: OutputLine[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    set((s) => {
      const all = [...s.serverOutput.lines, ...batch];
      const over = Math.max(0, all.length - MAX_OUTPUT_LINES);
      return { serverOutput: { ...s.serverOutput, lines: over ? all.slice(over) : all, dropped: s.serverOutput.dropped + over } };
    });
  };
  return {
    serverOutput: {
      lines: [],
      dropped: 0,
      push(epoch, output, text) {
        const line = output.type === 'exit' ? { stream: 'exit' as const, text: text ?? 'exited' } : { stream: output.stream, text: cut(output.text) };
        if (!pending.length) perAnimationFrame(flush);
        pending.push({ seq: ++seq, at: now(), epoch, ...line });
      },
      clear() {
        pending = [];
        set((s) => ({ serverOutput: { ...s.serverOutput, lines: [], dropped: 0 } }));
      },
    },
  };
}

/** The last `count` stderr lines of one connect, oldest first (what the connection error shows). */
export function lastStderr(lines: readonly OutputLine[], epoch: number, count = 5): string[] {
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0 && out.length < count; i--) {
    const l = lines[i];
    if (l && l.epoch === epoch && l.stream === 'stderr') out.unshift(l.text);
  }
  return out;
}
