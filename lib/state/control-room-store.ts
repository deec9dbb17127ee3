import { createStore, type StoreApi } from 'zustand/vanilla';
import type { JournalEntry, ReportCard, TaskSnapshot } from '../protocol/loupe-api';

/**
 * State of one scenario's control room, created per page mount (zustand vanilla store): the
 * live journal, the live tasks, the client report card, and which journal entries are
 * highlighted as a grade's evidence. Fed by the scenario's event stream; read through hooks.
 */

/** How the live feed is doing. */
export type FeedStatus = 'connecting' | 'live' | 'reconnecting' | 'unauthorized' | 'gone';

/** A journal entry as the page keeps it: frames flattened to the messages they carried. */
export interface JournalRow {
  seq: number;
  at: number;
  method?: string;
  id?: unknown;
  status?: number;
  streamed: boolean;
  end?: string;
  fault?: string;
  /** In a fleet: the instance that served it. */
  instance?: string;
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  responseBody?: unknown;
  frames: unknown[];
}

/** A live task of the scenario; `expired` once the control room expired it (it is gone from the store). */
export type LiveTask = TaskSnapshot & { expired?: boolean };

type ReportCardState = { status: 'idle' | 'loading' } | { status: 'ready'; card: ReportCard } | { status: 'unavailable' | 'error'; message: string };

/** The control room page's state: the scenario's journal, tasks and report card, and the feed that fills them. */
export interface ControlRoomState {
  scenarioId: string;
  feed: FeedStatus;
  journal: JournalRow[];
  tasks: LiveTask[];
  reportCard: ReportCardState;
  /** Journal seqs shown as evidence of the selected grade. */
  highlighted: number[];
  /** The entry to scroll to; `nonce` changes on every request so the same seq scrolls again. */
  focus?: { seq: number; nonce: number };
  /** Grows on every journal change (the report card refreshes on it). */
  journalVersion: number;
  /** Grows when the feed should be opened again (a scenario that was not running was saved). */
  feedEpoch: number;

  setFeed(feed: FeedStatus): void;
  applySnapshot(entries: JournalEntry[], tasks: TaskSnapshot[]): void;
  upsertEntry(entry: JournalEntry): void;
  addFrame(seq: number, frame: unknown): void;
  clearJournal(): void;
  upsertTask(task: TaskSnapshot): void;
  expireTask(task: TaskSnapshot): void;
  /** The scenario was reset: journal and tasks are empty. */
  resetAll(): void;
  setReportCard(state: ReportCardState): void;
  highlight(seqs: number[]): void;
  /** Open the live feed again if it had stopped. */
  reconnect(): void;
}

/** The control room store. */
export type ControlRoomStore = StoreApi<ControlRoomState>;

/** Entries kept on the page; the engine's journal holds no more than this by default. */
export const MAX_ROWS = 2000;

/** A frame of either journal shape: `{ at, order, message }` or the bare message. */
function frameMessage(frame: unknown): unknown {
  if (frame && typeof frame === 'object' && 'message' in frame && 'at' in frame) return (frame as { message: unknown }).message;
  return frame;
}

/** Normalize a wire journal entry into a row. */
function toJournalRow(entry: JournalEntry): JournalRow {
  return {
    seq: entry.seq,
    at: entry.at,
    method: entry.method,
    id: entry.id,
    status: entry.status,
    streamed: entry.streamed,
    end: entry.end,
    fault: entry.fault,
    ...(entry.instance ? { instance: entry.instance } : {}),
    requestHeaders: entry.requestHeaders,
    requestBody: entry.requestBody,
    responseBody: entry.responseBody,
    frames: (entry.frames ?? []).map(frameMessage),
  };
}

const byNewest = (a: LiveTask, b: LiveTask) => b.createdAt - a.createdAt || a.taskId.localeCompare(b.taskId);

function upsertRow(rows: JournalRow[], row: JournalRow): JournalRow[] {
  const last = rows[rows.length - 1];
  if (!last || last.seq < row.seq) return rows.length >= MAX_ROWS ? [...rows.slice(rows.length - MAX_ROWS + 1), row] : [...rows, row];
  const i = rows.findIndex((r) => r.seq === row.seq);
  if (i < 0) return [...rows, row].sort((a, b) => a.seq - b.seq);
  const next = rows.slice();
  next[i] = row;
  return next;
}

/** Create the store of one control room. */
export function createControlRoomStore(scenarioId: string): ControlRoomStore {
  return createStore<ControlRoomState>()((set) => ({
    scenarioId,
    feed: 'connecting',
    journal: [],
    tasks: [],
    reportCard: { status: 'idle' },
    highlighted: [],
    focus: undefined,
    journalVersion: 0,
    feedEpoch: 0,

    setFeed: (feed) => set({ feed }),
    applySnapshot: (entries, tasks) =>
      set((s) => ({
        journal: entries.slice(-MAX_ROWS).map(toJournalRow),
        tasks: [...tasks].sort(byNewest),
        journalVersion: s.journalVersion + 1,
        feed: 'live',
      })),
    upsertEntry: (entry) => set((s) => ({ journal: upsertRow(s.journal, toJournalRow(entry)), journalVersion: s.journalVersion + 1 })),
    addFrame: (seq, frame) =>
      set((s) => {
        const i = s.journal.findIndex((r) => r.seq === seq);
        const row = s.journal[i];
        if (!row) return {};
        const journal = s.journal.slice();
        journal[i] = { ...row, frames: [...row.frames, frameMessage(frame)] };
        return { journal, journalVersion: s.journalVersion + 1 };
      }),
    clearJournal: () => set((s) => ({ journal: [], highlighted: [], journalVersion: s.journalVersion + 1 })),
    upsertTask: (task) =>
      set((s) => {
        const i = s.tasks.findIndex((t) => t.taskId === task.taskId);
        const known = s.tasks[i];
        if (known && (known.revision ?? 0) > (task.revision ?? 0)) return {};
        const tasks = i >= 0 ? s.tasks.map((t, j) => (j === i ? task : t)) : [...s.tasks, task].sort(byNewest);
        return { tasks };
      }),
    expireTask: (task) =>
      set((s) => ({
        tasks: s.tasks.some((t) => t.taskId === task.taskId) ? s.tasks.map((t) => (t.taskId === task.taskId ? { ...t, expired: true } : t)) : s.tasks,
      })),
    resetAll: () => set((s) => ({ journal: [], tasks: [], highlighted: [], focus: undefined, journalVersion: s.journalVersion + 1 })),
    setReportCard: (reportCard) => set({ reportCard }),
    reconnect: () => set((s) => (s.feed === 'gone' || s.feed === 'unauthorized' ? { feed: 'connecting', feedEpoch: s.feedEpoch + 1 } : {})),
    highlight: (seqs) => set((s) => ({ highlighted: seqs, focus: seqs.length ? { seq: Math.min(...seqs), nonce: (s.focus?.nonce ?? 0) + 1 } : undefined })),
  }));
}
