import { describe, expect, it } from 'vitest';
import { createMockEngine } from '../../../lib/engine';
import { formatIssues, parseScenario } from '../../../lib/scenario/loader';
import { callTool } from '../../helpers/rpc';

/**
 * A scenario is JSON data. Explicit YAML tags used to pass validation and then break at run time:
 * `!!binary` failed every call of its tool (-32603), `!!set` and `!!omap` were served as `{}`,
 * `!!binary` in a schema as {"type":"Buffer",...}, and `!foo` was only a warning on `mock`.
 */

const HEAD = 'id: tags\nserver: { name: t, version: "1" }\ntools:\n';

function issuesOf(text: string, source = 'tags.yaml'): string {
  const parsed = parseScenario(text, source);
  return parsed.ok ? '' : formatIssues(parsed.errors);
}

describe('explicit YAML tags', () => {
  it('refuses each tag that is not a JSON type at the tag, naming it and what to write instead', () => {
    const text = [
      `${HEAD}  - name: bin`, // 4
      '    result: { content: [], structuredContent: { v: !!binary aGVsbG8= } }', // 5
      '  - name: set', // 6
      '    result: { content: [], structuredContent: { s: !!set {a, b}, o: !!omap [a: 1] } }', // 7
      '  - name: foo', // 8
      '    result: { content: [{ type: text, text: !foo bar }] }', // 9
      '  - name: schema', // 10
      '    inputSchema: { type: object, properties: { x: { default: &d !!binary aGVs } } }', // 11
      '    result:', // 12
      '      content: []', // 13
      '      structuredContent:', // 14
      '        when: !!timestamp 2001-12-14', // 15
      '        plain: ! text', // 16
    ].join('\n');
    const only = 'a scenario is JSON data, so only !!str, !!int, !!float, !!bool, !!null, !!map and !!seq may be written';
    expect(issuesOf(text).split('\n')).toEqual([
      `tags.yaml:5:52 The YAML tag !!binary is not allowed: ${only}; give binary data as a base64 string`,
      `tags.yaml:7:52 The YAML tag !!set is not allowed: ${only}; write a list`,
      `tags.yaml:7:69 The YAML tag !!omap is not allowed: ${only}; write a mapping`,
      `tags.yaml:9:45 The YAML tag !foo is not allowed: ${only}; remove the tag`,
      `tags.yaml:11:65 The YAML tag !!binary is not allowed: ${only}; give binary data as a base64 string`,
      `tags.yaml:15:15 The YAML tag !!timestamp is not allowed: ${only}; write the time as a string`,
      `tags.yaml:16:16 The YAML tag ! is not allowed: ${only}; remove the tag`,
    ]);
  });

  it('refuses a tag in JSON text too', () => {
    const text = '{"id": "j", "server": {"name": "t", "version": "1"}, "tools": [{"name": "a", "result": {"structuredContent": {"v": !!binary "aGVs"}}}]}';
    expect(issuesOf(text, 'scenario.txt')).toMatch(/^scenario\.txt:1:\d+ The YAML tag !!binary is not allowed/);
  });

  it('refuses a JSON type tag its value does not fit, rather than keeping the text with a warning', () => {
    expect(issuesOf(`${HEAD}  - name: a\n    result: { content: [], structuredContent: { n: !!int abc } }\n`)).toBe(
      'tags.yaml:5:52 The YAML tag !!int does not fit its value: write the value in that type, or remove the tag',
    );
  });

  it('keeps the tags that name a plain JSON type, and serves their values', async () => {
    const text = `${HEAD}  - name: typed\n    result: { content: [], structuredContent: { s: !!str 5, i: !!int "7", f: !!float 1.5, b: !!bool true, n: !!null null, m: !!map {a: 1}, q: !!seq [1] } }\n`;
    const parsed = parseScenario(text, 'typed.yaml');
    if (!parsed.ok) throw new Error(formatIssues(parsed.errors));
    expect(parsed.warnings).toEqual([]);
    const engine = createMockEngine({ scenario: parsed.scenario });
    try {
      const { body } = await callTool(engine, 'typed', {});
      expect(body.result.structuredContent).toEqual({ s: '5', i: 7, f: 1.5, b: true, n: null, m: { a: 1 }, q: [1] });
    } finally {
      engine.close();
    }
  });
});
