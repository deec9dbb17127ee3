'use client';

import { useInspectorStore } from '@/components/inspector/use-inspector';
import type { TaskRunner } from '@/lib/state/task-runner';

/** The inspector store's task runner: followers and listens that outlive a hidden panel. */
export function useTaskRunner(): TaskRunner {
  return useInspectorStore().taskRunner();
}
