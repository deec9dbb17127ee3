import { Badge, type Tone } from './Badge';

const STATUS_TONE: Record<string, Tone> = {
  working: 'accent',
  input_required: 'warning',
  completed: 'success',
  failed: 'danger',
  cancelled: 'neutral',
  expired: 'neutral',
};

/** A task's status (or `expired`) as a pill, the same in the tasks panel and the control room. */
export function TaskStatusBadge({ status, className = '' }: { status: string; className?: string }) {
  return (
    <Badge data-testid="task-status" tone={STATUS_TONE[status] ?? 'neutral'} className={`font-medium ${className}`}>
      {status}
    </Badge>
  );
}
