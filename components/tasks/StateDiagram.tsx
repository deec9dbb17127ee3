'use client';

import { useId } from 'react';
import type { TaskStatus } from '@/lib/protocol';
import { TERMINAL_STATUSES } from '@/lib/shared/task-status';
import type { StatusChange } from '@/lib/state/tasks-types';

/**
 * The task state machine, live: working ↔ input_required, then one of completed, failed or
 * cancelled (from either). The current status is filled, statuses the task has been in are
 * outlined, and the transitions it took are drawn solid.
 */

const NODES: { status: TaskStatus; x: number; y: number; label: string }[] = [
  { status: 'working', x: 40, y: 8, label: 'working' },
  { status: 'input_required', x: 220, y: 8, label: 'input_required' },
  { status: 'completed', x: 0, y: 92, label: 'completed' },
  { status: 'failed', x: 130, y: 92, label: 'failed' },
  { status: 'cancelled', x: 260, y: 92, label: 'cancelled' },
];
const W = 110;
const H = 26;
const EDGES: [TaskStatus, TaskStatus][] = [
  ['working', 'input_required'],
  ['input_required', 'working'],
  ...(['working', 'input_required'] as TaskStatus[]).flatMap((from) => TERMINAL_STATUSES.map((to): [TaskStatus, TaskStatus] => [from, to])),
];

const at = (s: TaskStatus) => NODES.find((n) => n.status === s)!;

function edgePoints(from: TaskStatus, to: TaskStatus): [number, number, number, number] {
  const a = at(from);
  const b = at(to);
  if (a.y === b.y) {
    // The two upper nodes: one arrow each way, offset so both are visible.
    const dy = from === 'working' ? -5 : 5;
    return a.x < b.x ? [a.x + W, a.y + H / 2 + dy, b.x, b.y + H / 2 + dy] : [a.x, a.y + H / 2 + dy, b.x + W, b.y + H / 2 + dy];
  }
  return [a.x + W / 2, a.y + H, b.x + W / 2, b.y];
}

interface StateDiagramProps {
  current: TaskStatus;
  history: StatusChange[];
}

/** The state machine of one task with its `current` status and the path its `history` took. */
export function StateDiagram({ current, history }: StateDiagramProps) {
  const marker = `arrow-${useId().replace(/:/g, '')}`;
  const visited = new Set(history.map((h) => h.status));
  // Each change with the one before it: `i` runs one behind `h`, so history[i] exists.
  const taken = new Set(history.slice(1).map((h, i) => `${history[i]!.status}>${h.status}`));
  return (
    <svg
      data-testid="state-diagram"
      data-current={current}
      viewBox="-2 -2 376 124"
      className="h-auto w-full max-w-sm"
      role="img"
      aria-label={`Task state: ${current}; visited ${[...visited].join(', ')}`}
    >
      <defs>
        <marker id={marker} viewBox="0 0 8 8" refX="7" refY="4" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M0,0 L8,4 L0,8 z" fill="currentColor" />
        </marker>
      </defs>
      {EDGES.map(([from, to]) => {
        const [x1, y1, x2, y2] = edgePoints(from, to);
        const on = taken.has(`${from}>${to}`);
        return (
          <line
            key={`${from}>${to}`}
            data-edge={`${from}>${to}`}
            data-taken={on ? 'true' : 'false'}
            x1={x1}
            y1={y1}
            x2={x2}
            y2={y2}
            className={on ? 'text-accent' : 'text-border'}
            stroke="currentColor"
            strokeWidth={on ? 2 : 1}
            strokeDasharray={on ? undefined : '3 3'}
            markerEnd={`url(#${marker})`}
          />
        );
      })}
      {NODES.map((n) => {
        const isCurrent = n.status === current;
        const wasVisited = visited.has(n.status);
        const tone = isCurrent ? (n.status === 'failed' ? 'fill-danger' : n.status === 'completed' ? 'fill-success' : 'fill-accent') : 'fill-surface';
        return (
          <g key={n.status} data-node={n.status} data-current={isCurrent ? 'true' : 'false'} data-visited={wasVisited ? 'true' : 'false'}>
            <rect
              x={n.x}
              y={n.y}
              width={W}
              height={H}
              rx={13}
              className={`${tone} ${wasVisited || isCurrent ? 'stroke-accent' : 'stroke-border'}`}
              strokeWidth={wasVisited ? 2 : 1}
            />
            <text
              x={n.x + W / 2}
              y={n.y + H / 2 + 4}
              textAnchor="middle"
              className={`font-mono text-[11px] ${isCurrent ? 'fill-white' : wasVisited ? 'fill-foreground' : 'fill-muted'}`}
            >
              {n.label}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
