import type { Grade, GradeContext } from './report-card';
import { fingerprint } from '../shared/fingerprint';
import { isTerminalStatus } from '../shared/task-status';
import { ABOUT_MODERN, lastSighting, noting, plural, pollsOf, seqs, taskIdOf, ungraded, type Exchange } from './report-view';

/** The cancel-ack grade: a tasks/cancel ack is not the end of the task, so the client keeps following it. */

const SPEC = 'MCP 2026-07-28 tasks extension: tasks/cancel (the ack is not final: cooperative and eventually consistent)';

/**
 * After a tasks/cancel ack the client looked again (poll or task listen) instead of taking the ack
 * as final. 2026-07-28 only: a 2025-11-25 tasks/cancel is answered with the task, cancelled.
 */
export function gradeCancelAck({ xs, sightings, now, scenario }: GradeContext): Grade {
  const base = { id: 'cancel-ack-not-final', title: 'Cancel ack not taken as final', specRef: SPEC };
  const cancels = xs.filter((x) => x.method === 'tasks/cancel' && x.result && taskIdOf(x));
  const acks = cancels.filter((x) => x.modern);
  const left = ungraded(cancels, 'tasks/cancel', { legacy: `, whose answer is the task itself, already cancelled${ABOUT_MODERN}` });
  const bad: Exchange[] = [];
  const good: number[] = [];
  let waiting = 0;
  for (const ack of acks) {
    const taskId = taskIdOf(ack)!;
    const seen = lastSighting(sightings, taskId, ack.order);
    if (seen && isTerminalStatus(seen.status)) continue;
    const poll = pollsOf(xs, taskId).find((p) => p.order > ack.doneOrder);
    const listen = xs.find(
      (l) =>
        l.method === 'subscriptions/listen' &&
        l.doneOrder > ack.doneOrder &&
        ((l.params.notifications as { taskIds?: unknown[] })?.taskIds ?? []).includes(taskId),
    );
    if (poll || listen) {
      good.push(ack.seq, (poll ?? listen)!.seq);
      continue;
    }
    const grace = 3 * (seen?.pollIntervalMs ?? scenario.settings.pollIntervalMs);
    if (now - (ack.endedAt ?? ack.at) < grace) waiting++;
    else bad.push(ack);
  }
  const [x] = bad;
  if (x) {
    return {
      ...base,
      status: 'fail',
      detail: noting(
        `After the tasks/cancel ack #${x.seq} for task ${fingerprint(taskIdOf(x)!)} the client never polled or listened for that task again: it took the ack as final.`,
        left,
      ),
      evidence: seqs(bad.map((b) => b.seq)),
    };
  }
  if (!good.length)
    return {
      ...base,
      status: 'not-observed',
      detail: waiting
        ? noting('Waiting for the client to look at the task after its tasks/cancel ack.', left)
        : left
          ? `${left}.`
          : 'No tasks/cancel ack for an unfinished task was seen.',
      evidence: [],
    };
  return {
    ...base,
    status: 'pass',
    detail: noting(`After ${plural(good.length / 2, 'cancel ack')} the client kept following the task.`, left),
    evidence: seqs(good),
  };
}
