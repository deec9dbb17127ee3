import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSchemaValidator } from '../../../lib/client/schema-validator';
import { lintAll, type Exchange, type LintContext } from '../../../lib/protocol';
import { pointerToPath } from '../../../lib/protocol/lints/schemas';

/** The tool schema lints with ajv behind them: each failure with the JSON path a user can follow. */

const fixture = JSON.parse(readFileSync(join(__dirname, '../../fixtures/protocol/tool-schemas.json'), 'utf8')) as {
  cases: { name: string; context: LintContext; exchanges: Exchange[] }[];
};
const byName = (name: string) => fixture.cases.find((c) => c.name.startsWith(name))!;
const lintCase = (name: string) => {
  const c = byName(name);
  return lintAll(c.exchanges, c.context, { validateSchema: createSchemaValidator() })[0]!;
};

describe('tool schema lints', () => {
  it('names each nested argument that breaks inputSchema by its path', () => {
    const lints = lintCase('nested arguments');
    expect(lints.map((l) => l.path).sort()).toEqual([
      'request.body.params.arguments.place.city',
      'request.body.params.arguments.place.days',
      'request.body.params.arguments.units',
    ]);
    expect(lints.every((l) => l.id === 'tool-arguments-schema-mismatch' && l.severity === 'error')).toBe(true);
    expect(lints.find((l) => l.path?.endsWith('.days'))?.message).toContain('must be >= 1');
  });

  it('names each part of structuredContent that breaks outputSchema, array items included', () => {
    const lints = lintCase('structuredContent that breaks');
    expect(lints.map((l) => l.path).sort()).toEqual([
      'response.body.result.structuredContent.humidity',
      'response.body.result.structuredContent.readings[0].value',
      'response.body.result.structuredContent.temperature',
    ]);
    expect(lints.map((l) => l.specRef)).toContain('server/tools#output-schema');
  });

  it('checks a completed task’s result against the outputSchema of the tool whose call created the task', () => {
    const c = byName('a completed task');
    const [created, polled] = lintAll(c.exchanges, c.context, { validateSchema: createSchemaValidator() });
    expect(created).toEqual([]);
    expect(polled!.map((l) => [l.id, l.path])).toEqual([['tool-output-schema-mismatch', 'response.body.result.result.structuredContent.temperature']]);
  });

  it('knows nothing of a tool it was not told about, and is off without a validator', () => {
    const c = byName('nested arguments');
    expect(lintAll(c.exchanges, {}, { validateSchema: createSchemaValidator() })[0]).toEqual([]);
    expect(lintAll(c.exchanges, c.context)[0]).toEqual([]);
  });

  it('checks a draft-07 schema as 2020-12 instead of failing to compile it', () => {
    const validate = createSchemaValidator();
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'number' } } };
    expect(validate(schema, { n: 'x' })).toEqual({ failures: [{ pointer: '/n', message: '/n must be number' }] });
    expect(validate(schema, { n: 1 })).toEqual({ failures: [] });
    expect(validate({ type: 'object', properties: { a: { 'x-mcp-header': 'A', type: 'string' } } }, { a: 'ok' })).toEqual({ failures: [] });
  });

  it('reports a schema whose keywords hold values of the wrong kind as unusable, without the meta-schema', () => {
    const validate = createSchemaValidator();
    const broken = [
      { type: 'object', properties: { x: { type: 'nonsense' } } },
      { type: 'object', required: 'x' },
      { properties: 5 },
      { type: 'object', properties: { x: { $ref: '#/nope' } } },
      { type: 'string', pattern: '[' },
      { items: 'x' },
    ];
    for (const schema of broken) expect(validate(schema, {}), JSON.stringify(schema)).toHaveProperty('schemaError');
    expect(lintCase('a schema the validator cannot compile').map((l) => l.id)).toEqual(['tool-schema-invalid']);
  });

  it('turns JSON Pointers into readable paths', () => {
    expect(pointerToPath('')).toBe('');
    expect(pointerToPath('/a/0/b~1c/d e/~0x')).toBe('.a[0]["b/c"]["d e"]["~x"]');
  });
});
