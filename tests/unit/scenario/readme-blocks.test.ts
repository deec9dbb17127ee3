import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatIssues, parseScenario } from '../../../lib/scenario/loader';

/**
 * Every fenced ```yaml / ```json block of README.md is a scenario readers copy, so each is
 * validated with the loader `mcp-loupe validate` uses. The rule, stated in the README beside the
 * blocks: a block is a whole scenario, or a fragment whose first line is `# fragment: ...`,
 * validated inside a minimal scenario (an id and a server put in front of it).
 */

const README = new URL('../../../README.md', import.meta.url);
const FRAGMENT = /^#\s*fragment\b/i;
const WRAPPER = ['id: readme-fragment', 'server: { name: readme, version: 1.0.0 }'];

type Block = { language: 'yaml' | 'json'; line: number; text: string };

/** The yaml and json fenced blocks of a Markdown text, with the line their first text line is on. */
function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(yaml|yml|json)\s*$/.exec(lines[i] ?? '');
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end < 0) throw new Error(`README.md:${i + 1}: unclosed code block`);
    blocks.push({ language: open[1] === 'json' ? 'json' : 'yaml', line: i + 2, text: `${lines.slice(i + 1, end).join('\n')}\n` });
    i = end;
  }
  return blocks;
}

const blocks = fencedBlocks(readFileSync(README, 'utf8'));

describe('README scenario blocks', () => {
  it('has the scenario blocks of its Scenario files section (whole scenarios and fragments)', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(blocks.some((b) => FRAGMENT.test(b.text))).toBe(true);
    expect(blocks.some((b) => !FRAGMENT.test(b.text))).toBe(true);
  });

  for (const block of blocks) {
    const fragment = FRAGMENT.test(block.text);
    it(`README.md:${block.line} is a valid ${fragment ? 'scenario fragment' : 'scenario'}`, () => {
      if (fragment && block.language === 'json') throw new Error(`README.md:${block.line}: a JSON block must be a whole scenario`);
      const text = fragment ? `${WRAPPER.join('\n')}\n${block.text}` : block.text;
      const shift = fragment ? WRAPPER.length : 0;
      const result = parseScenario(text, 'README.md');
      // Report at README lines, so a failure points at the line to fix.
      const problems = result.ok ? [] : result.errors.map((e) => ({ ...e, line: e.line - shift + block.line - 1 }));
      expect(formatIssues(problems)).toBe('');
      if (result.ok) expect(formatIssues(result.warnings)).toBe('');
    });
  }

  it('points editors at a schema file the package ships', () => {
    const readme = readFileSync(README, 'utf8');
    const hint = /yaml-language-server: \$schema=\.\/node_modules\/mcp-loupe\/(\S+?)`?\s/.exec(readme);
    expect(hint?.[1]).toBe('public/scenario.schema.json');
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { files: string[] };
    expect(pkg.files).toEqual(expect.arrayContaining(['public/scenario.schema.json', 'examples']));
  });
});
