import { describe, expect, it } from 'vitest';
import { formatIssues, parseScenario, type ScenarioIssue } from '../../../lib/scenario/loader';

const VALID_YAML = `# a small scenario
id: small
server:
  name: small-server
  version: 1.0.0
tools:
  - name: echo
    inputSchema: { type: object }
    result:
      content:
        - type: text
          text: "{{args.text}}"
  - name: slow
    task:
      steps:
        - status: working
          delayMs: 10
        - result:
            content: []
resources:
  - uri: ui://small/view.html
    name: view
    text: <p>hi</p>
`;

const VALID_JSON = `{
  "id": "small-json",
  "server": { "name": "s", "version": "1" },
  "tools": [{ "name": "echo", "result": { "content": [] } }]
}`;

function errorsOf(text: string, source = 'test.yaml'): ScenarioIssue[] {
  const result = parseScenario(text, source);
  if (result.ok) throw new Error('expected the scenario to be invalid');
  return result.errors;
}

describe('parseScenario', () => {
  it('parses a valid YAML scenario', () => {
    const result = parseScenario(VALID_YAML, 'small.yaml');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.scenario.id).toBe('small');
    expect(result.scenario.tools.map((t) => t.name)).toEqual(['echo', 'slow']);
    expect(result.scenario.tools[1].task?.steps).toHaveLength(2);
    expect(result.warnings).toEqual([]);
  });

  it('parses a valid JSON scenario', () => {
    const result = parseScenario(VALID_JSON, 'small.json');
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.scenario.server).toEqual({ name: 's', version: '1' });
  });

  it('applies the defaults of seed 000', () => {
    const result = parseScenario(VALID_JSON, 'small.json');
    if (!result.ok) throw new Error(formatIssues(result.errors));
    expect(result.scenario.settings).toMatchObject({
      pollIntervalMs: 1000,
      taskTtlMs: 900000,
      listTtlMs: 60000,
      discoverTtlMs: 300000,
      requestStateTtlSeconds: 300,
      replayStoreMaxEntries: 1000,
    });
    expect(result.scenario.supportedVersions).toEqual(['2026-07-28']);
    expect(result.scenario.tools[0].inputSchema).toEqual({ type: 'object' });
  });

  it('reports a wrong type at its line and path', () => {
    const text = VALID_YAML.replace(
      '      steps:\n        - status: working\n          delayMs: 10\n        - result:\n            content: []\n',
      '      steps: soon\n',
    );
    const errors = errorsOf(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ source: 'test.yaml', line: 15, column: 14, path: 'tools[1].task.steps', message: 'Expected array, received string' });
  });

  it('reports every error, sorted by line', () => {
    const text = [
      'id: Not Valid', // 1
      'server:', // 2
      '  name: s', // 3
      '  version: 1', // 4
      'settings:', // 5
      '  pollIntervalMs: fast', // 6
      'tools:', // 7
      '  - name: a', // 8
      '    delayMs: true', // 9
      '    result: { content: nope }', // 10
    ].join('\n');
    const errors = errorsOf(text);
    expect(errors.map((e) => [e.line, e.path])).toEqual([
      [1, 'id'],
      [4, 'server.version'],
      [6, 'settings.pollIntervalMs'],
      [9, 'tools[0].delayMs'],
      [10, 'tools[0].result.content'],
    ]);
    expect(errors[3].message).toBe('Expected number or string, received boolean');
  });

  it('reports a YAML syntax error with its line', () => {
    const errors = errorsOf('id: x\nserver:\n  name: [unclosed\nversion: 1\n');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0].line).toBeGreaterThanOrEqual(3);
    expect(errors[0].path).toBe('');
  });

  it('reports a JSON syntax error with its line', () => {
    const errors = errorsOf('{\n  "id": "x",\n  "server": { "name": "s" "version": "1" }\n}', 'bad.json');
    expect(errors).toEqual([{ source: 'bad.json', line: 3, column: 27, path: '', message: "Invalid JSON: expected ',' or '}' after property value" }]);
  });

  it('points a missing required field at its parent mapping', () => {
    const errors = errorsOf('id: x\nserver:\n  name: s\n  title: t\n');
    expect(errors).toEqual([{ source: 'test.yaml', line: 3, column: 3, path: 'server.version', message: 'Missing required key "version" (expected string)' }]);
    const rootErrors = errorsOf('id: x\n');
    expect(rootErrors[0]).toMatchObject({ line: 1, column: 1, path: 'server' });
  });

  it('reports duplicate tool names at the duplicate', () => {
    const text = VALID_YAML.replace('  - name: slow', '  - name: echo');
    const errors = errorsOf(text);
    expect(errors).toEqual([
      { source: 'test.yaml', line: 13, column: 11, path: 'tools[1].name', message: 'Duplicate tool name "echo" (first declared at line 7)' },
    ]);
  });

  it('reports duplicate prompt names and resource uris', () => {
    const text = `${VALID_YAML}  - uri: ui://small/view.html\n    name: again\nprompts:\n  - name: p\n    messages: [{ role: user, content: { type: text, text: hi } }]\n  - name: p\n    messages: [{ role: user, content: { type: text, text: hi } }]\n`;
    const errors = errorsOf(text);
    expect(errors.map((e) => e.path)).toEqual(['resources[1].uri', 'prompts[1].name']);
  });

  it('requires the last task step to be terminal', () => {
    const text = VALID_YAML.replace('        - result:\n            content: []\n', '        - status: working\n          statusMessage: still going\n');
    const errors = errorsOf(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 18, path: 'tools[1].task.steps[1]' });
    expect(errors[0].message).toMatch(/terminal/);
  });

  it('requires a behaviour on every tool', () => {
    const errors = errorsOf('id: x\nserver: { name: s, version: "1" }\ntools:\n  - name: idle\n    description: does nothing\n');
    expect(errors).toEqual([
      { source: 'test.yaml', line: 4, column: 5, path: 'tools[0]', message: 'A tool needs a behaviour: one of result, error, mrtr, task or handler' },
    ]);
  });

  it('warns when ui.resourceUri names no declared resource', () => {
    const text = VALID_YAML.replace(
      '    inputSchema: { type: object }\n',
      '    inputSchema: { type: object }\n    ui: { resourceUri: "ui://small/missing.html" }\n',
    );
    const result = parseScenario(text, 'test.yaml');
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.warnings).toMatchObject([{ line: 9, path: 'tools[0].ui.resourceUri' }]);
  });

  it('narrows a failed union to the branch the author meant', () => {
    const text = `id: x
server: { name: s, version: "1" }
tools:
  - name: confirm
    mrtr:
      rounds:
        - inputRequests: {}
          onDecline:
            result: { content: oops }
        - inputRequests: {}
          onDecline: {}
    result: { content: [] }
`;
    const errors = errorsOf(text);
    expect(errors.map((e) => [e.line, e.path, e.message])).toEqual([
      [9, 'tools[0].mrtr.rounds[0].onDecline.result.content', 'Expected array, received string'],
      [11, 'tools[0].mrtr.rounds[1].onDecline', 'Expected one of the keys result, error, continue'],
    ]);
  });

  it('refuses unquoted values in JSON', () => {
    const errors = errorsOf('{ "id": small }', 'x.json');
    expect(errors[0]).toMatchObject({ line: 1, column: 9 });
  });

  it('says a document nested by indentation past what the parser can hold is too deep, not "Maximum call stack size exceeded"', () => {
    // Block nesting has no brackets to count first: 1,400 levels overflow the YAML parser's stack.
    const text = Array.from({ length: 1400 }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    const errors = errorsOf(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe('The document is nested too deep for the YAML parser (more than 256 levels); scenarios never need that');
  });

  it('refuses alias expansion past the cap instead of building a huge object', () => {
    let text = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 9; i++)
      text += `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]\n`;
    expect(errorsOf(text)[0].message).toMatch(/alias/i);
  });

  it("points at the token JSON refused even when the engine's message names no position (Node 20: Unexpected token '}', ...)", () => {
    expect(errorsOf('{\n  "id": "x",\n  "tools": [}\n', 'bad.json')).toEqual([
      { source: 'bad.json', line: 3, column: 13, path: '', message: "Invalid JSON: unexpected token '}'" },
    ]);
    expect(errorsOf('{"id": @}', 'at.json')).toEqual([{ source: 'at.json', line: 1, column: 8, path: '', message: "Invalid JSON: unexpected token '@'" }]);
  });

  it("reads a .json file as JSON: a file cut short gets JSON's error at the end, not a YAML parser message", () => {
    const errors = errorsOf('{"id":"x", "tools": [\n', 'cut.json');
    expect(errors).toEqual([{ source: 'cut.json', line: 1, column: 22, path: '', message: 'Invalid JSON: unexpected end of JSON input' }]);
    // Even when it does not start with `{`.
    expect(errorsOf('[1, 2', 'list.json')[0]!.message).toMatch(/^Invalid JSON: /);
  });

  it('refuses in a .json file what JSON refuses and YAML takes: a trailing comma, a comment', () => {
    expect(errorsOf('{"id": "x", "server": {"name": "s", "version": "1"},}', 'comma.json')).toEqual([
      expect.objectContaining({ source: 'comma.json', line: 1, message: expect.stringMatching(/^Invalid JSON: /) }),
    ]);
    expect(errorsOf('{"id": "x" # note\n}', 'comment.json')[0]!.message).toMatch(/^Invalid JSON: /);
    // The same text in a .yaml file is YAML's flow style, and fine there.
    expect(parseScenario('{"id": "x", "server": {"name": "s", "version": "1"},}', 'comma.yaml').ok).toBe(true);
  });

  it("expands YAML merge keys (<<: *anchor), so a tool can reuse another's fields", () => {
    const text = `id: merged
server: { name: s, version: 1.0.0 }
tools:
  - &base
    name: first
    inputSchema: { type: object, properties: { text: { type: string } } }
    result: { content: [{ type: text, text: hi }] }
  - <<: *base
    name: second
`;
    const parsed = parseScenario(text, 'merge.yaml');
    if (!parsed.ok) throw new Error(formatIssues(parsed.errors));
    expect(parsed.scenario.tools.map((t) => t.name)).toEqual(['first', 'second']);
    expect(parsed.scenario.tools[1]!.inputSchema).toEqual(parsed.scenario.tools[0]!.inputSchema);
    // A typo beside a merge key is still named as the unknown key it is.
    const typo = errorsOf('id: m\nserver: { name: s, version: 1.0.0 }\ntools:\n  - &b { name: x }\n  - <<: *b\n    reslt: 1\n');
    expect(typo.map((e) => e.message).join('\n')).toMatch(/reslt/);
    expect(typo.map((e) => e.message).join('\n')).not.toContain('"<<"');
  });

  it('keeps the alias cap when merge keys multiply aliases', () => {
    let text = 'a0: &a0 { k: [x, x, x, x, x, x, x, x, x, x] }\n';
    for (let i = 1; i < 9; i++)
      text += `a${i}: &a${i} { <<: *a${i - 1}, l: [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}] }\n`;
    expect(errorsOf(text)[0]!.message).toMatch(/alias/i);
  });

  it('reports an empty document as a whole-file error', () => {
    const errors = errorsOf('');
    expect(errors[0]).toMatchObject({ line: 1, column: 1, path: '' });
  });
});

describe('formatIssues', () => {
  it('prints one source:line:column path: message line per issue', () => {
    const text = VALID_YAML.replace(
      '      steps:\n        - status: working\n          delayMs: 10\n        - result:\n            content: []\n',
      '      steps: soon\n',
    );
    expect(formatIssues(errorsOf(text, 'demo.yaml'))).toBe('demo.yaml:15:14 tools[1].task.steps: Expected array, received string');
    expect(
      formatIssues([
        { source: 'a.yaml', line: 1, column: 1, path: '', message: 'Broken' },
        { source: 'a.yaml', line: 2, column: 3, path: 'requires["io.modelcontextprotocol/tasks"]', message: 'Bad' },
      ]),
    ).toBe('a.yaml:1:1 Broken\na.yaml:2:3 requires["io.modelcontextprotocol/tasks"]: Bad');
  });
});
