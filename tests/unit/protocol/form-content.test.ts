import { describe, expect, it } from 'vitest';
import { RequestedSchemaSchema, validateFormContent } from '../../../lib/protocol/mrtr';

/**
 * What the mock checks in an accepted form answer: the same formats, lengths and choices the
 * inspector's form enforces before it sends (lib/client/elicitation-form.ts), so a client that
 * sends what its form should have refused is told so.
 */
const schema = RequestedSchemaSchema.parse({
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    nick: { type: 'string', minLength: 2, maxLength: 3 },
    tags: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['a', 'b', 'c'] } },
    picks: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'x', title: 'X' },
          { const: 'y', title: 'Y' },
        ],
      },
    },
  },
});

describe('validateFormContent', () => {
  it('accepts values in their formats, lengths counted in characters, and listed choices', () => {
    const good = {
      email: 'a@b.co',
      site: 'https://example.com/x',
      day: '2026-02-28',
      at: '2026-07-28T14:30:00Z',
      nick: '🦊🦊',
      tags: ['a', 'c'],
      picks: ['y'],
    };
    expect(validateFormContent(schema, good)).toEqual([]);
  });

  it('refuses each format it does not match, saying which format and how to write it', () => {
    const problems = validateFormContent(schema, { email: 'not-an-email', site: 'example.com', day: '2026-02-30', at: '2026-07-28 14:30' });
    expect(problems).toEqual([
      '"email" must be an email address like name@example.com (format email)',
      '"site" must be an absolute URI like https://example.com (format uri)',
      '"day" must be a date as YYYY-MM-DD (format date)',
      '"at" must be a date and time like 2026-07-28T14:30:00Z (format date-time)',
    ]);
  });

  it('refuses choices outside a multi-select and counts outside minItems and maxItems', () => {
    expect(validateFormContent(schema, { tags: ['a', 'z'] })).toEqual(['"tags" may hold only a, b, c (not z)']);
    expect(validateFormContent(schema, { tags: [] })).toEqual(['"tags" has fewer than 1 items']);
    expect(validateFormContent(schema, { tags: ['a', 'b', 'c'] })).toEqual(['"tags" has more than 2 items']);
    expect(validateFormContent(schema, { picks: ['x', 'q'] })).toEqual(['"picks" may hold only x, y (not q)']);
  });

  it('counts length in characters, not UTF-16 units', () => {
    // Four emoji are 8 UTF-16 units but 4 characters: over maxLength 3 either way; two are within it.
    expect(validateFormContent(schema, { nick: '🦊🦊🦊🦊' })).toEqual(['"nick" is longer than 3']);
    expect(validateFormContent(schema, { nick: '🦊' })).toEqual(['"nick" is shorter than 2']);
  });
});
