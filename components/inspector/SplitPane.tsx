'use client';

import { type KeyboardEvent, type PointerEvent, type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * Two panes and a handle between them. Drag the handle, or focus it and use the arrow keys
 * (Home and End go to the limits); the size is remembered per `id` in localStorage, as a
 * fraction, so it follows the window's size.
 */

const STEP = 0.02;
const KEY = (id: string) => `loupe.pane.${id}`;

function stored(id: string): number | undefined {
  try {
    const n = Number(localStorage.getItem(KEY(id)));
    return Number.isFinite(n) && n > 0 && n < 1 ? n : undefined;
  } catch {
    return undefined;
  }
}

interface SplitPaneProps {
  id: string;
  /** `row`: side by side, the handle upright; `column`: one over the other. */
  direction: 'row' | 'column';
  /** The first pane's share at first (0..1). */
  initial: number;
  min?: number;
  max?: number;
  /** What the handle resizes, for screen readers ("Resize the timeline and the detail"). */
  label: string;
  first: ReactNode;
  second: ReactNode;
  className?: string;
  /**
   * Stack the panes one over the other with no handle, each pane given its class (its height):
   * for narrow windows. The panes stay mounted across the switch, so nothing in them is lost.
   */
  stacked?: { first: string; second: string };
}

/** Two resizable panes (see above). */
export function SplitPane({ id, direction, initial, min = 0.2, max = 0.8, label, first, second, className = '', stacked }: SplitPaneProps) {
  const [size, setSize] = useState(initial);
  const box = useRef<HTMLDivElement>(null);
  const row = direction === 'row';
  const clamp = (n: number) => Math.min(max, Math.max(min, n));

  // Read after hydration: the exported page has no localStorage.
  useEffect(() => {
    const s = stored(id);
    if (s !== undefined) setSize(Math.min(max, Math.max(min, s)));
  }, [id, min, max]);

  const commit = (n: number) => {
    const next = clamp(n);
    setSize(next);
    try {
      localStorage.setItem(KEY(id), next.toFixed(4));
    } catch {
      /* private mode: the size is kept for this page only */
    }
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!e.currentTarget.hasPointerCapture(e.pointerId) || !box.current) return;
    const r = box.current.getBoundingClientRect();
    setSize(clamp(row ? (e.clientX - r.left) / r.width : (e.clientY - r.top) / r.height));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const less = row ? 'ArrowLeft' : 'ArrowUp';
    const more = row ? 'ArrowRight' : 'ArrowDown';
    const next = e.key === less ? size - STEP : e.key === more ? size + STEP : e.key === 'Home' ? min : e.key === 'End' ? max : undefined;
    if (next === undefined) return;
    e.preventDefault();
    commit(next);
  };

  if (stacked)
    return (
      <div ref={box} className={`flex min-w-0 flex-col gap-2 ${className}`} data-split={id} data-stacked>
        <div className={`flex min-h-0 min-w-0 flex-col ${stacked.first}`} data-pane="first">
          {first}
        </div>
        {/* The handle's place, kept empty: React matches children by position, so both panes stay mounted. */}
        {null}
        <div className={`flex min-h-0 min-w-0 flex-col ${stacked.second}`} data-pane="second">
          {second}
        </div>
      </div>
    );
  return (
    <div ref={box} className={`flex min-h-0 min-w-0 ${row ? 'flex-row' : 'flex-col'} ${className}`} data-split={id}>
      <div className="flex min-h-0 min-w-0 flex-col" style={{ flexBasis: `${size * 100}%`, flexShrink: 0, flexGrow: 0 }} data-pane="first">
        {first}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a focusable, movable splitter is the ARIA window-splitter pattern; <hr> cannot take focus or keys */}
      <div
        role="separator"
        tabIndex={0}
        aria-orientation={row ? 'vertical' : 'horizontal'}
        aria-label={label}
        aria-valuenow={Math.round(size * 100)}
        aria-valuemin={Math.round(min * 100)}
        aria-valuemax={Math.round(max * 100)}
        data-testid={`splitter-${id}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={(e) => {
          if (e.currentTarget.hasPointerCapture(e.pointerId)) commit(size);
        }}
        onKeyDown={onKeyDown}
        className={`group flex shrink-0 touch-none items-center justify-center outline-none ${row ? 'w-2 cursor-col-resize' : 'h-2 cursor-row-resize'}`}
      >
        <span className={`rounded-full bg-border group-hover:bg-accent/60 group-focus-visible:bg-accent ${row ? 'h-10 w-1' : 'h-1 w-10'}`} />
      </div>
      <div className="flex min-h-0 min-w-0 flex-1 flex-col" data-pane="second">
        {second}
      </div>
    </div>
  );
}
