import { describe, expect, it } from 'vitest';
import { formatIssues, parseScenario } from '../../../lib/scenario/loader';

/**
 * A placeholder whose root the engine does not provide where it is written (`{{arg.text}}`,
 * `{{foo.bar}}`) used to render an empty string without a word; now it is an error naming the
 * roots that exist there.
 */

const HEAD = 'id: roots\nserver: { name: t, version: "1" }\n';

function issuesOf(body: string): string[] {
  const parsed = parseScenario(`${HEAD}${body}`, 'roots.yaml');
  return parsed.ok ? [] : formatIssues(parsed.errors).split('\n');
}

describe('placeholder roots', () => {
  it('reports an unknown root where it is written, with the root meant and the roots known there', () => {
    const body = [
      'tools:', // 3
      '  - name: echo', // 4
      '    result: { content: [{ type: text, text: "{{arg.text}} and {{foo.bar}}" }] }', // 5
      '  - name: job', // 6
      '    task:', // 7
      '      steps:', // 8
      '        - statusMessage: "Task {{taskid}}"', // 9
      '        - result: { content: [], structuredContent: { n: "{{ags.n}}" } }', // 10
      'prompts:', // 11
      '  - name: p', // 12
      '    messages: [{ role: user, content: { type: text, text: "{{input.a.content.b}}" } }]', // 13
      'resourceTemplates:', // 14
      '  - { uriTemplate: "notes://{id}", name: note, text: "Note {{var.id}}" }', // 15
    ].join('\n');
    expect(issuesOf(body)).toEqual([
      'roots.yaml:5:45 tools[0].result.content[0].text: Unknown placeholder {{arg.text}}: "arg" is not a value here (did you mean "args"?); placeholders here start with args, inputs, progressToken',
      'roots.yaml:5:45 tools[0].result.content[0].text: Unknown placeholder {{foo.bar}}: "foo" is not a value here; placeholders here start with args, inputs, progressToken',
      'roots.yaml:9:26 tools[1].task.steps[0].statusMessage: Unknown placeholder {{taskid}}: "taskid" is not a value here (did you mean "taskId"?); placeholders here start with args, inputs, taskId',
      'roots.yaml:10:58 tools[1].task.steps[1].result.structuredContent.n: Unknown placeholder {{ags.n}}: "ags" is not a value here (did you mean "args"?); placeholders here start with args, inputs, taskId',
      'roots.yaml:13:59 prompts[0].messages[0].content.text: Unknown placeholder {{input.a.content.b}}: "input" is not a value here (did you mean "inputs"?); placeholders here start with args, inputs',
      'roots.yaml:15:54 resourceTemplates[0].text: Unknown placeholder {{var.id}}: "var" is not a value here (did you mean "vars"?); placeholders here start with vars',
    ]);
  });

  it('leaves text the engine never fills alone: descriptions, schemas, a static resource (an app view may hold {{ }})', () => {
    const body = [
      'tools:',
      '  - name: t',
      '    description: "Fills {{whatever}}"',
      '    inputSchema: { type: object, properties: { x: { description: "{{x}}" } } }',
      '    result: { content: [{ type: text, text: "{{args.x}} {{inputs.a.content.b}} {{progressToken}} {{ args }}" }] }',
      'resources:',
      '  - { uri: "ui://v/view.html", name: view, text: "<div>{{ message }}</div>" }',
    ].join('\n');
    expect(issuesOf(body)).toEqual([]);
  });
});
