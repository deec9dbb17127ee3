'use client';

/**
 * Scrub through a recording: the slider picks a moment between the first and the last frame;
 * the timeline, the tasks and streams panels and the app view then show the session as it was
 * at that moment.
 */
export function Scrubber({
  start,
  end,
  at,
  builtAt,
  onScrub,
}: {
  start: number;
  end: number;
  at: number;
  builtAt?: number;
  onScrub: (at: number | undefined) => void;
}) {
  const span = Math.max(0, end - start);
  const offset = (ms: number) => `+${(ms / 1000).toFixed(3)} s`;
  return (
    <section
      aria-label="Scrub the recording"
      data-testid="scrubber"
      data-at={builtAt ?? at}
      className="flex flex-wrap items-center gap-3 rounded-xl border border-border bg-surface px-3 py-2 text-xs"
    >
      <span className="font-semibold">Moment</span>
      <input
        type="range"
        min={0}
        max={span}
        step={1}
        value={Math.min(span, Math.max(0, at - start))}
        aria-label="Moment in the recording"
        data-testid="scrub-range"
        className="min-w-48 flex-1 accent-accent"
        onChange={(e) => {
          const v = Number(e.target.value);
          onScrub(v >= span ? undefined : start + v);
        }}
      />
      <span data-testid="scrub-offset" className="w-24 font-mono tabular-nums">
        {offset(at - start)}
      </span>
      <span className="text-muted">of {offset(span)}</span>
      <span className="text-muted">{new Date(at).toISOString().replace('T', ' ').replace('Z', ' UTC')}</span>
      <button
        type="button"
        data-testid="scrub-end"
        onClick={() => onScrub(undefined)}
        className="rounded-md border border-border px-2 py-0.5 hover:bg-surface-muted"
        disabled={at >= end}
      >
        End
      </button>
    </section>
  );
}
