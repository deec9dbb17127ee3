'use client';

import { useInspector } from './use-inspector';

/** The Tasks tab's badge: how many tasks wait for the user's input (so a form asking for it is seen from any tab). */
export function TasksBadge() {
  const waiting = useInspector((s) => s.tasks.order.filter((id) => s.tasks.byId[id]?.snapshot.status === 'input_required').length);
  if (!waiting) return null;
  return (
    <span
      data-testid="tasks-input-badge"
      className="rounded-full bg-warning px-1.5 text-[11px] font-semibold text-on-accent"
      title={`${waiting} task(s) need your input`}
    >
      {waiting} input
    </span>
  );
}
