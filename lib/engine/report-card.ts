import { z } from 'zod';
import type { Scenario } from '../scenario/schema';
import type { JournalEntry } from './journal';
import { gradeExtensionDeclared, gradeMcpName, gradePollCadence, gradeStopsAtTerminal } from './report-tasks';
import { gradeCancelAck } from './report-cancel';
import { gradeIdempotencyKeys, gradeRelisten, gradeRequestState } from './report-requests';
import { gradeRetryAfter } from './report-retry-after';
import { plural, taskSightings, toExchanges, type Exchange, type TaskSighting } from './report-view';
import { gradeAuth } from './auth/grades';

/**
 * The client report card: grades a client's behaviour against MCP 2026-07-28 from the mock's
 * journal alone. Each grade passes, fails or was not observed (the session never exercised
 * it), and links the journal entries (by `seq`) that prove it. Pure: same journal, same card.
 */

/** pass, fail, or not observed (the session never exercised the rule). */
const GradeStatusSchema = z.enum(['pass', 'fail', 'not-observed']);
export type GradeStatus = z.infer<typeof GradeStatusSchema>;

/** One graded rule: its verdict, what to do about it, and the journal entries it rests on. */
const GradeSchema = z.object({
  /** Stable id, e.g. `poll-cadence`. */
  id: z.string(),
  title: z.string(),
  status: GradeStatusSchema,
  /** One or two sentences a person can act on. */
  detail: z.string(),
  /** Journal seqs that prove the grade (the offending entries when it fails). */
  evidence: z.array(z.number().int()),
  /** Where the rule comes from. */
  specRef: z.string(),
});
export type Grade = z.infer<typeof GradeSchema>;

/** The report card: every grade, in a fixed order, and when it was made. */
export const ReportCardSchema = z.object({
  generatedAt: z.string(),
  grades: z.array(GradeSchema),
  /**
   * Set when every grade is not-observed although the journal holds traffic: a card that graded
   * nothing is not a clean bill of health, and this says so (the JUnit file and the CLI show it).
   */
  warning: z.string().optional(),
});
export type ReportCard = z.infer<typeof ReportCardSchema>;

/** What every grader reads. */
export interface GradeContext {
  xs: Exchange[];
  sightings: TaskSighting[];
  scenario: Scenario;
  /** Grading time: waits (a poll after a cancel ack, a re-listen) are judged against it. */
  now: number;
}

/** Options of {@link gradeClient}. */
interface GradeOptions {
  /** Grading time (default: the latest journal time). */
  now?: number;
}

/** Grade ids in the order they are reported. */
export const GRADE_IDS = [
  'poll-cadence',
  'mcp-name',
  'extension-declared',
  'stops-at-terminal',
  'cancel-ack-not-final',
  'relisten-without-last-event-id',
  'idempotency-keys',
  'request-state-echo',
  'honours-retry-after',
] as const;

const GRADERS: ((ctx: GradeContext) => Grade)[] = [
  gradePollCadence,
  gradeMcpName,
  gradeExtensionDeclared,
  gradeStopsAtTerminal,
  gradeCancelAck,
  gradeRelisten,
  gradeIdempotencyKeys,
  gradeRequestState,
  gradeRetryAfter,
];

/** Grade a client from journal entries of one scenario's endpoint. */
export function gradeClient(entries: readonly JournalEntry[], scenario: Scenario, options: GradeOptions = {}): ReportCard {
  const latest = entries.reduce((t, e) => Math.max(t, e.endedAt ?? e.at, ...e.frames.map((f) => f.at)), -Infinity);
  const now = options.now ?? (Number.isFinite(latest) ? latest : Date.now());
  const xs = toExchanges(entries);
  const ctx: GradeContext = { xs, sightings: taskSightings(xs), scenario, now };
  // A scenario with an `auth:` block adds the authorization grades (auth/grades.ts), named after the conformance checks.
  const auth = scenario.auth ? gradeAuth(entries, scenario.auth) : [];
  const grades = [...GRADERS.map((g) => g(ctx)), ...auth];
  const warning = grades.every((g) => g.status === 'not-observed') ? gradedNothing(entries.length, xs) : undefined;
  return { generatedAt: new Date(now).toISOString(), grades, ...(warning ? { warning } : {}) };
}

/** Why a card with traffic behind it graded nothing, in one line (undefined for an empty journal). */
function gradedNothing(entries: number, xs: readonly Exchange[]): string | undefined {
  if (!entries) return undefined;
  if (!xs.length) return `the report card graded nothing: ${plural(entries, 'journal entry', 'journal entries')}, none of them a JSON-RPC request.`;
  const stdio = xs.filter((x) => x.transport === 'stdio').length;
  const legacy = xs.filter((x) => !x.modern).length;
  const kinds = [stdio ? `${stdio} over stdio` : '', legacy ? `${legacy} from a 2025-11-25 client` : ''].filter(Boolean).join(', ');
  const methods = [...new Set(xs.map((x) => x.method))].slice(0, 6).join(', ');
  return `the report card graded nothing: ${plural(xs.length, 'request')} ${xs.length === 1 ? 'was' : 'were'} journaled${kinds ? ` (${kinds})` : ''} (${methods}), but none exercised a rule it grades; each grade's detail says what it looked for.`;
}
