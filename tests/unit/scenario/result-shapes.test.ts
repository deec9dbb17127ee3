import { describe, expect, it } from 'vitest';
import { formatIssues, parseScenario } from '../../../lib/scenario/loader';

/**
 * What a scenario serves is checked where it is written: results and content blocks against the
 * 2026-07-28 shapes (a typo or a wrong type used to be served as written, to clients right to
 * refuse it), tool schemas with type: object at the root (else SDK clients refuse the whole
 * tools/list), and delays in the forms the engine computes (others used to wait 0 ms).
 */

const HEAD = 'id: shapes\nserver: { name: t, version: "1" }\n';

function issuesOf(body: string): string[] {
  const parsed = parseScenario(`${HEAD}${body}`, 'shapes.yaml');
  return parsed.ok ? [] : formatIssues(parsed.errors).split('\n');
}

describe('tool results and content blocks', () => {
  it('reports unknown keys with the key meant, wrong types and unknown content types', () => {
    const body = [
      'tools:', // 3
      '  - name: typo', // 4
      '    result: { content: [{ type: text, txt: hello }], structuredContnet: { a: 1 } }', // 5
      '  - name: types', // 6
      '    result:', // 7
      '      content:', // 8
      '        - { type: text, text: 5 }', // 9
      '        - { type: bogus }', // 10
      '        - { type: imgae, data: aGk=, mimeType: image/png }', // 11
      '        - { type: image, data: aGk=, mimeType: 7 }', // 12
      '        - { text: no type }', // 13
      '      resultType: complete', // 14
    ].join('\n');
    const blocks = 'a content block is one of text, image, audio, resource_link or resource';
    expect(issuesOf(body)).toEqual([
      'shapes.yaml:5:39 tools[0].result.content[0].txt: Unknown key "txt" (did you mean "text"?)',
      'shapes.yaml:5:54 tools[0].result.structuredContnet: Unknown key "structuredContnet" (did you mean "structuredContent"?)',
      'shapes.yaml:9:31 tools[1].result.content[0].text: Expected string, received number',
      `shapes.yaml:10:19 tools[1].result.content[1].type: Unknown content type "bogus"; ${blocks}`,
      `shapes.yaml:11:19 tools[1].result.content[2].type: Unknown content type "imgae" (did you mean "image"?); ${blocks}`,
      'shapes.yaml:12:48 tools[1].result.content[3].mimeType: Expected string, received number',
      `shapes.yaml:13:11 tools[1].result.content[4].type: Missing required key "type": ${blocks}`,
      'shapes.yaml:14:7 tools[1].result.resultType: Unknown key "resultType"; allowed here: content, structuredContent, isError, _meta',
    ]);
  });

  it('accepts every content block of the spec, with annotations and _meta', () => {
    const body = [
      'tools:',
      '  - name: all',
      '    result:',
      '      _meta: { io.example/trace: abc }',
      '      isError: false',
      '      content:',
      '        - { type: text, text: hi, annotations: { audience: [user], priority: 0.5, lastModified: "2026-01-01T00:00:00Z" }, _meta: { k: 1 } }',
      '        - { type: image, data: aGk=, mimeType: image/png }',
      '        - { type: audio, data: aGk=, mimeType: audio/wav }',
      '        - { type: resource_link, uri: "notes://1", name: note, title: Note, description: d, mimeType: text/plain, size: 2, icons: [{ src: "https://x/i.png" }] }',
      '        - { type: resource, resource: { uri: "notes://1", mimeType: text/plain, text: hi } }',
      '        - { type: resource, resource: { uri: "notes://2", blob: aGk= } }',
    ].join('\n');
    expect(issuesOf(body)).toEqual([]);
  });

  it('checks the annotations and the embedded resource of a block', () => {
    const body = [
      'tools:', // 3
      '  - name: a', // 4
      '    result:', // 5
      '      content:', // 6
      '        - { type: text, text: hi, annotations: { priorty: 1 } }', // 7
      '        - { type: resource, resource: { uri: "notes://1" } }', // 8
    ].join('\n');
    expect(issuesOf(body)).toEqual([
      'shapes.yaml:7:50 tools[0].result.content[0].annotations.priorty: Unknown key "priorty" (did you mean "priority"?)',
      'shapes.yaml:8:39 tools[0].result.content[1].resource: Give the resource either text or blob (one of them)',
    ]);
  });

  it('checks every result a scenario gives: task steps, decline results, MRTR outcomes, prompt messages', () => {
    const body = [
      'tools:', // 3
      '  - name: task', // 4
      '    task:', // 5
      '      steps:', // 6
      '        - inputRequests: { ok: { method: elicitation/create, params: { message: ok? } } }', // 7
      '          declineResult: { content: [{ type: text, tetx: no }] }', // 8
      '        - toolError: { content: [{ type: txt, text: failed }] }', // 9
      '  - name: mrtr', // 10
      '    mrtr:', // 11
      '      rounds:', // 12
      '        - inputRequests: { ok: { method: elicitation/create, params: { message: ok? } } }', // 13
      '          onDecline: { result: { content: [{ type: text, text: [no] }] } }', // 14
      '    result: { content: [] }', // 15
      'prompts:', // 16
      '  - name: p', // 17
      '    messages:', // 18
      '      - { role: system, content: { type: text, text: hi } }', // 19
      '      - { role: user, content: { type: text, txt: hi } }', // 20
    ].join('\n');
    expect(issuesOf(body)).toEqual([
      'shapes.yaml:8:52 tools[0].task.steps[0].declineResult.content[0].tetx: Unknown key "tetx" (did you mean "text"?)',
      'shapes.yaml:9:42 tools[0].task.steps[1].toolError.content[0].type: Unknown content type "txt" (did you mean "text"?); a content block is one of text, image, audio, resource_link or resource',
      'shapes.yaml:14:64 tools[1].mrtr.rounds[0].onDecline.result.content[0].text: Expected string, received array',
      'shapes.yaml:19:17 prompts[0].messages[0].role: Invalid option: expected one of "user"|"assistant"',
      'shapes.yaml:20:46 prompts[0].messages[1].content.txt: Unknown key "txt" (did you mean "text"?)',
    ]);
  });
});

describe('tool schemas', () => {
  it('requires type: object at the root of inputSchema and outputSchema', () => {
    const body = [
      'tools:', // 3
      '  - name: a', // 4
      '    inputSchema: { type: string }', // 5
      '    outputSchema: { properties: { n: { type: integer } } }', // 6
      '    result: { content: [] }', // 7
    ].join('\n');
    expect(issuesOf(body)).toEqual([
      'shapes.yaml:5:26 tools[0].inputSchema.type: A tool\'s inputSchema must have type: object at its root (tool arguments are always an object, and clients refuse the whole tools/list over one tool without it); got type: "string"',
      "shapes.yaml:6:19 tools[0].outputSchema.type: A tool's outputSchema must have type: object at its root (structuredContent is an object, and 2025-11-25 clients refuse the whole tools/list over one tool without it); got no type",
    ]);
  });
});

describe('delays', () => {
  it('accepts a number and the forms the engine computes', () => {
    const forms = ['250', '"{{args.ms}}"', '"{{args.seconds}} * 1000"', '"2 * {{ args.n }}"', '"{{args.a}} * {{args.b}}"', '"1.5 * {{args.n}}"'];
    const body = `tools:\n${forms.map((f, i) => `  - { name: t${i}, delayMs: ${f}, result: { content: [] } }\n`).join('')}`;
    expect(issuesOf(body)).toEqual([]);
    expect(issuesOf(`tools:\n  - name: t\n    task: { steps: [{ delayMs: "{{args.s}} * 1000" }, { result: { content: [] } }] }\n`)).toEqual([]);
  });

  it('refuses any other string, on a tool and on a task step, rather than waiting 0 ms', () => {
    const body = [
      'tools:', // 3
      '  - { name: a, delayMs: abc, result: { content: [] } }', // 4
      '  - name: b', // 5
      '    task: { steps: [{ delayMs: "{{args.n}} * {{args.m}} * 3" }, { result: { content: [] } }] }', // 6
      '  - { name: c, delayMs: "{{args.n}} + 5", result: { content: [] } }', // 7
    ].join('\n');
    const expected = (value: string) =>
      `Expected a whole number of ms or a placeholder expression with at most one multiplication ("{{args.ms}}", "{{args.seconds}} * 1000"), received ${JSON.stringify(value)}`;
    expect(issuesOf(body)).toEqual([
      `shapes.yaml:4:25 tools[0].delayMs: ${expected('abc')}`,
      `shapes.yaml:6:32 tools[1].task.steps[0].delayMs: ${expected('{{args.n}} * {{args.m}} * 3')}`,
      `shapes.yaml:7:25 tools[2].delayMs: ${expected('{{args.n}} + 5')}`,
    ]);
  });
});
