'use client';

import { useInspector } from '@/components/inspector/use-inspector';
import { Badge, type Tone } from '@/components/ui/Badge';
import { clockTime } from '@/components/ui/clock-time';
import { EmptyState } from '@/components/ui/EmptyState';
import { MAX_OUTPUT_LINES, type OutputLine } from '@/lib/state/server-output-slice';

/**
 * The "Server output" tab: what a stdio server wrote besides its messages — stderr (its errors
 * and stack traces), stdout lines that are not JSON, the proxy's notes — and how its process
 * ended, each line with its time. The newest lines are kept (see lib/state/server-output-slice.ts).
 * Text is rendered as text: a server's output never becomes markup.
 */

const TONE: Record<OutputLine['stream'], Tone> = { stderr: 'danger', stdout: 'neutral', proxy: 'warning', exit: 'accent' };

function Row({ line, first }: { line: OutputLine; first: boolean }) {
  return (
    <li
      data-testid="output-line"
      data-stream={line.stream}
      data-epoch={line.epoch}
      className={`flex gap-2 px-2 py-0.5 ${first ? 'border-t border-border pt-1' : ''}`}
    >
      <time className="shrink-0 font-mono text-[11px] text-muted">{clockTime(line.at)}</time>
      <Badge tone={TONE[line.stream]} className="h-fit shrink-0 text-[11px]">
        {line.stream}
      </Badge>
      <pre className="min-w-0 flex-1 whitespace-pre-wrap break-all font-mono text-xs">{line.text}</pre>
    </li>
  );
}

/** The server output panel of the workbench. */
export function ServerOutputPanel() {
  const lines = useInspector((s) => s.serverOutput.lines);
  const dropped = useInspector((s) => s.serverOutput.dropped);
  const clear = useInspector((s) => s.serverOutput.clear);
  const stdio = useInspector((s) => s.connection.config.mode === 'stdio');
  return (
    <section data-testid="server-output" className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs text-muted">
          What the stdio server wrote besides its messages: stderr, stdout lines that are not JSON, the proxy’s notes, and its exit. The newest{' '}
          {MAX_OUTPUT_LINES} lines are kept{dropped ? ` (${dropped} older ones let go)` : ''}.
        </p>
        <button
          type="button"
          onClick={clear}
          disabled={!lines.length}
          className="shrink-0 rounded-md border border-border px-2 py-1 text-xs hover:bg-surface-muted disabled:opacity-50"
        >
          Clear
        </button>
      </div>
      {lines.length ? (
        <ol aria-label="Server output lines" className="rounded-lg border border-border py-1">
          {lines.map((l, i) => (
            <Row key={l.seq} line={l} first={i > 0 && lines[i - 1]?.epoch !== l.epoch} />
          ))}
        </ol>
      ) : (
        <EmptyState testId="server-output-empty" className="py-6">
          {stdio
            ? 'Nothing yet: the server has written no stderr or stray stdout.'
            : 'Only a stdio server has output to show here: choose “stdio (via proxy)” and type its command line.'}
        </EmptyState>
      )}
    </section>
  );
}

/** The tab's badge: how many stderr lines the current connection's server wrote. */
export function ServerOutputBadge() {
  const count = useInspector((s) => {
    const epoch = s.connection.epoch;
    return s.serverOutput.lines.filter((l) => l.epoch === epoch && l.stream === 'stderr').length;
  });
  if (!count) return null;
  return (
    <span
      data-testid="server-output-badge"
      className="rounded-full bg-danger/15 px-1.5 text-[11px] font-semibold text-danger"
      title={`${count} stderr line(s)`}
    >
      {count}
    </span>
  );
}
