import type { ReportCard } from '../engine/public';
import { xmlText as xml } from '../shared/xml';

/**
 * A mock's client report card as JUnit XML (`mcp-loupe mock --report out.xml`), so a client's CI
 * job fails on a failing grade: one test case per grade; a failed grade is a failure, a grade the
 * session never exercised is skipped. A card that graded nothing although the client sent requests
 * (`card.warning`) says so in the suite's properties and system-out: an all-skipped suite looks
 * green in most CI views, and that is not what happened.
 */
export function reportCardToJUnit(card: ReportCard, scenarioId: string): string {
  const failures = card.grades.filter((g) => g.status === 'fail').length;
  const skipped = card.grades.filter((g) => g.status === 'not-observed').length;
  const cases = card.grades.map((g) => {
    const open = `    <testcase classname="mcp-loupe.client" name="${xml(`${g.id}: ${g.title}`)}"`;
    const evidence = g.evidence.length ? ` (journal entries ${g.evidence.join(', ')})` : '';
    if (g.status === 'pass') return `${open}/>`;
    if (g.status === 'not-observed') return `${open}>\n      <skipped message="${xml(g.detail)}"/>\n    </testcase>`;
    return `${open}>\n      <failure type="${xml(g.id)}" message="${xml(g.detail)}">${xml(`${g.detail}${evidence} (spec: ${g.specRef})`)}</failure>\n    </testcase>`;
  });
  // JUnit's order inside a suite: properties, the test cases, then system-out.
  const properties = card.warning ? `    <properties>\n      <property name="mcp-loupe.warning" value="${xml(card.warning)}"/>\n    </properties>\n` : '';
  const out = card.warning ? `\n    <system-out>${xml(`mcp-loupe: ${card.warning}`)}</system-out>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcp-loupe" tests="${card.grades.length}" failures="${failures}" errors="0" skipped="${skipped}">\n  <testsuite name="${xml(`client report card (scenario ${scenarioId})`)}" tests="${card.grades.length}" failures="${failures}" errors="0" skipped="${skipped}" timestamp="${xml(card.generatedAt)}">\n${properties}${cases.join('\n')}${out}\n  </testsuite>\n</testsuites>\n`;
}
