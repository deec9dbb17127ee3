'use client';

import { describeFlood, type FloodReport } from '@/lib/client/bridge-flood';
import { BRIDGE_BYTES_PER_WINDOW, BRIDGE_BYTES_WINDOW_MS, BRIDGE_MESSAGES_PER_SECOND } from '@/lib/protocol/bridge-gate';

/**
 * Shown in place of a view that flooded the bridge: what it sent, the limit, and Resume, which
 * loads the view again from scratch (it is paused again if it floods again).
 */
export function FloodNotice({ report, onResume }: { report: FloodReport; onResume(): void }) {
  return (
    <div
      data-testid="app-paused"
      data-dropped={report.dropped}
      role="alert"
      className="space-y-2 rounded-md border border-danger/40 bg-danger/10 p-3 text-sm text-danger"
    >
      <p data-testid="app-paused-reason">{describeFlood(report)}.</p>
      <p className="text-xs">
        The view was unloaded and its further messages counted and dropped unread so this page stays responsive. Views may send up to{' '}
        {BRIDGE_MESSAGES_PER_SECOND} messages per second and {BRIDGE_BYTES_PER_WINDOW / 1024 / 1024} MiB per {BRIDGE_BYTES_WINDOW_MS / 1000} s.
      </p>
      <button type="button" data-testid="app-resume" onClick={onResume} className="rounded-md border border-danger/40 px-2 py-0.5 text-xs hover:bg-danger/10">
        Resume (load the view again)
      </button>
    </div>
  );
}
