import { describe, expect, it } from 'vitest';
import { sleep, type Clock } from '../../../lib/shared/clock';
import { asRecord, isRecord } from '../../../lib/shared/records';
import { isTerminalStatus, TASK_STATUSES } from '../../../lib/shared/task-status';

/** A clock whose timers fire only when the test advances it. */
function fakeClock(): Clock & { advance(ms: number): void } {
  let now = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let next = 1;
  return {
    now: () => now,
    setTimeout: (fn, ms) => {
      timers.set(next, { at: now + ms, fn });
      return next++;
    },
    clearTimeout: (h) => void timers.delete(h as number),
    advance(ms) {
      now += ms;
      for (const [id, t] of [...timers]) {
        if (t.at > now) continue;
        timers.delete(id);
        t.fn();
      }
    },
  };
}

describe('shared vocabulary', () => {
  it('treats only plain objects as records', () => {
    expect(isRecord({ a: 1 })).toBe(true);
    for (const v of [null, undefined, [], 'x', 3, true]) expect(isRecord(v)).toBe(false);
    expect(asRecord([1])).toBeUndefined();
    const o = { k: 1 };
    expect(asRecord(o)).toBe(o);
  });

  it('knows which statuses end a task, and nothing else', () => {
    expect(TASK_STATUSES.filter(isTerminalStatus)).toEqual(['completed', 'failed', 'cancelled']);
    expect(isTerminalStatus('expired')).toBe(false);
    expect(isTerminalStatus(undefined)).toBe(false);
  });

  it('sleeps on the injected clock, and wakes early on abort or wake()', async () => {
    const clock = fakeClock();
    const a = sleep(clock, 1000);
    clock.advance(999);
    const ctl = new AbortController();
    const b = sleep(clock, 1000, ctl.signal);
    const c = sleep(clock, 1000);
    ctl.abort();
    c.wake();
    clock.advance(1);
    expect(await a.done).toBe(true);
    expect(await b.done).toBe(false);
    expect(await c.done).toBe(false);
  });
});
