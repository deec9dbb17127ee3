import { describe, expect, it } from 'vitest';
import { buildArguments, describeArguments, initialArgValues, parseRawArguments } from '../../../lib/client/tool-arguments';

/** A tool's inputSchema as a form: controls for flat properties, JSON for the rest, defaults, validation. */

const SCHEMA = {
  type: 'object',
  properties: {
    size: { type: 'string', enum: ['small', 'large'], default: 'small' },
    count: { type: 'integer', minimum: 1 },
    dryRun: { type: 'boolean' },
    verbose: { type: 'boolean', default: false },
    filter: { type: 'object', properties: { tag: { type: 'string' } } },
    ids: { type: 'array', items: { type: 'number' } },
  },
  required: ['count', 'filter'],
};

describe('tool arguments', () => {
  it('maps flat properties to controls and the rest to JSON fields, in order, with defaults', () => {
    const fields = describeArguments(SCHEMA);
    expect(fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['size', 'select', false],
      ['count', 'number', true],
      ['dryRun', 'boolean', false],
      ['verbose', 'boolean', false],
      ['filter', 'json', true],
      ['ids', 'json', false],
    ]);
    expect(initialArgValues(fields)).toMatchObject({ size: 'small', count: '', dryRun: false, verbose: false, filter: '', ids: '' });
  });

  it('validates before building, types numbers, parses JSON fields and leaves absent what the user left empty', () => {
    const fields = describeArguments(SCHEMA);
    const values = initialArgValues(fields);
    const bad = buildArguments(fields, { ...values, count: '0', filter: '{tag:' });
    expect(bad).toMatchObject({ ok: false, errors: { count: 'Must be at least 1' } });
    expect((bad as { errors: Record<string, string> }).errors.filter).toMatch(/^Not JSON/);
    const good = buildArguments(fields, { ...values, count: '3', filter: '{"tag":"x"}' });
    // An unchecked optional checkbox without a default is absent, not false; one with a default is sent.
    expect(good).toEqual({ ok: true, args: { size: 'small', count: 3, verbose: false, filter: { tag: 'x' } } });
  });

  it('takes raw JSON objects only', () => {
    expect(parseRawArguments('')).toEqual({ ok: true, args: {} });
    expect(parseRawArguments('{"a":1}')).toEqual({ ok: true, args: { a: 1 } });
    expect(parseRawArguments('[1]')).toMatchObject({ ok: false, error: 'Arguments must be a JSON object' });
    expect(parseRawArguments('{')).toMatchObject({ ok: false });
  });
});
