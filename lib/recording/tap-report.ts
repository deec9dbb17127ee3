import { LINT_RULES, type Lint } from '../protocol';
import { groupExchanges } from './exchanges';
import type { Recording } from './schema';
import { xmlText as xml } from '../shared/xml';

/**
 * The report of a tapped (or recorded) session for CI: every lint rule is one test case, under
 * the peer it grades (the server's rules grade the tapped server, the client's the tapped
 * client), failing when the session broke it at error severity; warnings and notes are listed
 * but pass. The same content as JSON and as JUnit XML.
 */

type Party = 'client' | 'server';

/** One lint finding, placed on its exchange. */
interface Finding extends Lint {
  party: Party;
  exchangeId: string;
  method?: string;
  rpcId?: string | number;
}

/** One rule's outcome over the session. */
interface RuleOutcome {
  id: string;
  party: Party;
  title: string;
  specRef: string;
  failed: boolean;
  findings: Finding[];
}

/** The report document (`--report out.json`). */
interface SessionReport {
  format: 'mcp-loupe-report';
  version: 1;
  target: string;
  createdAt: string;
  exchanges: number;
  summary: { errors: number; warnings: number; info: number; failedRules: number };
  rules: RuleOutcome[];
}

const catalogue = LINT_RULES as Record<string, { party: Party; title: string; specRef: string } | undefined>;

/** Lint findings of a recording, as a report. */
export function buildSessionReport(recording: Recording): SessionReport {
  const exchanges = groupExchanges(recording.frames);
  const byId = new Map(exchanges.map((x) => [x.exchangeId, x]));
  const findings: Finding[] = [];
  for (const [exchangeId, lints] of Object.entries(recording.lints)) {
    const x = byId.get(exchangeId);
    for (const lint of lints)
      findings.push({
        ...lint,
        party: catalogue[lint.id]?.party ?? 'server',
        exchangeId,
        ...(x?.method ? { method: x.method } : {}),
        ...(x?.rpcId !== undefined ? { rpcId: x.rpcId } : {}),
      });
  }
  const rules: RuleOutcome[] = Object.entries(catalogue).map(([id, rule]) => {
    const mine = findings.filter((f) => f.id === id);
    return { id, party: rule!.party, title: rule!.title, specRef: rule!.specRef, failed: mine.some((f) => f.severity === 'error'), findings: mine };
  });
  // A finding of a rule this build does not catalogue still fails the report.
  for (const f of findings)
    if (!catalogue[f.id]) rules.push({ id: f.id, party: f.party, title: f.id, specRef: f.specRef, failed: f.severity === 'error', findings: [f] });
  const count = (s: Lint['severity']) => findings.filter((f) => f.severity === s).length;
  return {
    format: 'mcp-loupe-report',
    version: 1,
    target: recording.connection.target,
    createdAt: recording.createdAt,
    exchanges: exchanges.length,
    summary: { errors: count('error'), warnings: count('warning'), info: count('info'), failedRules: rules.filter((r) => r.failed).length },
    rules,
  };
}

function describe(f: Finding): string {
  const where = `${f.method ?? 'exchange'}${f.rpcId !== undefined ? ` (id ${String(f.rpcId)})` : ''} [${f.exchangeId}]`;
  return `${f.severity}: ${where}: ${f.message}${f.path ? ` at ${f.path}` : ''} (spec: ${f.specRef})`;
}

/** The report as JUnit XML: one test suite per graded peer, one test case per rule. */
export function reportToJUnit(report: SessionReport): string {
  const suites = (['server', 'client'] as const).map((party) => {
    const rules = report.rules.filter((r) => r.party === party);
    const failures = rules.filter((r) => r.failed).length;
    const cases = rules.map((r) => {
      const name = `${r.id}: ${r.title}`;
      const open = `    <testcase classname="mcp-loupe.${party}" name="${xml(name)}"`;
      if (!r.findings.length) return `${open}/>`;
      const errors = r.findings.filter((f) => f.severity === 'error');
      const failure = r.failed
        ? `      <failure type="${xml(r.id)}" message="${xml(`${errors.length} violation(s) of ${r.id}`)}">${xml(errors.map(describe).join('\n'))}</failure>\n`
        : '';
      const notes = r.findings.filter((f) => f.severity !== 'error');
      const out = notes.length ? `      <system-out>${xml(notes.map(describe).join('\n'))}</system-out>\n` : '';
      return `${open}>\n${failure}${out}    </testcase>`;
    });
    return `  <testsuite name="${party} (${xml(report.target)})" tests="${rules.length}" failures="${failures}" errors="0" skipped="0" timestamp="${xml(report.createdAt)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const tests = report.rules.length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcp-loupe" tests="${tests}" failures="${report.summary.failedRules}" errors="0">\n${suites.join('\n')}\n</testsuites>\n`;
}
