import { describe, expect, it } from 'vitest';
import { describeForm, formContent, initialValues, submitForm, validateField, validateForm, type FormFieldSpec } from '../../../lib/client/elicitation-form';
import { validateFormContent, RequestedSchemaSchema } from '../../../lib/protocol';

/** Form-mode elicitation logic: fields from a requestedSchema, defaults, validation, typed content. */

const SCHEMA = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', title: 'Email' },
    site: { type: 'string', format: 'uri' },
    birthday: { type: 'string', format: 'date' },
    meeting: { type: 'string', format: 'date-time' },
    nick: { type: 'string', minLength: 2, maxLength: 5, default: 'ada' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    height: { type: 'number', minimum: 0.5, default: 1.7 },
    subscribe: { type: 'boolean', default: true },
    agree: { type: 'boolean' },
    size: { type: 'string', enum: ['s', 'm', 'l'], default: 'm' },
    color: {
      type: 'string',
      oneOf: [
        { const: 'r', title: 'Red' },
        { const: 'g', title: 'Green' },
      ],
    },
    legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y', 'z'] }, minItems: 1, maxItems: 2, default: ['x'] },
    langs: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'en', title: 'English' },
          { const: 'fr', title: 'French' },
        ],
      },
    },
  },
  required: ['email', 'age', 'color'],
};

const field = (key: string): FormFieldSpec => describeForm(SCHEMA).fields.find((f) => f.key === key)!;

describe('describeForm', () => {
  it('derives every primitive kind with labels, options and constraints', () => {
    const { fields, problems } = describeForm(SCHEMA);
    expect(problems).toEqual([]);
    expect(Object.fromEntries(fields.map((f) => [f.key, f.kind]))).toEqual({
      email: 'text',
      site: 'text',
      birthday: 'text',
      meeting: 'text',
      nick: 'text',
      age: 'number',
      height: 'number',
      subscribe: 'boolean',
      agree: 'boolean',
      size: 'select',
      color: 'select',
      legacy: 'select',
      tags: 'multi',
      langs: 'multi',
    });
    expect(field('email')).toMatchObject({ label: 'Email', format: 'email', required: true });
    expect(field('age')).toMatchObject({ integer: true, minimum: 0, maximum: 150, required: true });
    expect(field('color').options).toEqual([
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'Green' },
    ]);
    expect(field('legacy').options).toEqual([
      { value: 'a', label: 'Alpha' },
      { value: 'b', label: 'Beta' },
    ]);
    expect(field('size').options?.map((o) => o.label)).toEqual(['s', 'm', 'l']);
    expect(field('langs').options).toEqual([
      { value: 'en', label: 'English' },
      { value: 'fr', label: 'French' },
    ]);
    expect(field('tags')).toMatchObject({ minItems: 1, maxItems: 2 });
  });

  it('names properties a form cannot show and flags secrets', () => {
    const { fields, problems } = describeForm({ type: 'object', properties: { address: { type: 'object' }, apiKey: { type: 'string' } } });
    expect(fields.map((f) => f.key)).toEqual(['apiKey']);
    expect(fields[0].secret).toBe('"api key" in the name');
    expect(problems).toEqual([expect.stringContaining('"address"')]);
    expect(describeForm(undefined).problems).toHaveLength(1);
  });
});

describe('initial values', () => {
  it('pre-fills defaults and leaves the rest empty', () => {
    const values = initialValues(describeForm(SCHEMA).fields);
    expect(values).toEqual({
      email: '',
      site: '',
      birthday: '',
      meeting: '',
      nick: 'ada',
      age: '',
      height: '1.7',
      subscribe: true,
      agree: false,
      size: 'm',
      color: '',
      legacy: '',
      tags: ['x'],
      langs: [],
    });
  });
});

describe('validation', () => {
  it.each([
    ['email', 'not-an-email', 'Enter an email address like name@example.com'],
    ['site', 'example.com', 'Enter an absolute URI like https://example.com'],
    ['birthday', '2026-02-30', 'Enter a date as YYYY-MM-DD'],
    ['meeting', '2026-07-28 14:30', 'Enter a date and time like 2026-07-28T14:30:00Z'],
    ['nick', 'a', 'Enter at least 2 characters'],
    ['nick', 'abcdef', 'Enter at most 5 characters'],
    ['age', '12.5', 'Enter a whole number'],
    ['age', 'twelve', 'Enter a whole number'],
    ['age', '151', 'Must be at most 150'],
    ['height', '0.1', 'Must be at least 0.5'],
    ['height', '1,7', 'Enter a number'],
    ['color', 'blue', 'Choose one of the options'],
    ['email', '', 'Required'],
  ])('%s = %j → %s', (key, value, message) => {
    expect(validateField(field(key), value)).toBe(message);
  });

  it.each([
    ['email', 'ada@example.com'],
    ['site', 'https://example.com/x'],
    ['birthday', '2024-02-29'],
    ['meeting', '2026-07-28T14:30:00+02:00'],
    ['nick', 'ada'],
    ['age', '42'],
    ['height', '.5'],
    ['site', ''],
  ])('%s = %j is fine', (key, value) => {
    expect(validateField(field(key), value)).toBeUndefined();
  });

  it('counts multi-select choices against minItems/maxItems', () => {
    expect(validateField(field('tags'), [])).toBe('Choose at least 1');
    expect(validateField(field('tags'), ['x', 'y', 'z'])).toBe('Choose at most 2');
    expect(validateField(field('tags'), ['q'])).toBe('Choose only from the listed options');
  });

  it('blocks submit with every problem and accepts once fixed', () => {
    const { fields } = describeForm(SCHEMA);
    const values = initialValues(fields);
    const blocked = submitForm(fields, values);
    expect(blocked).toEqual({ ok: false, errors: { email: 'Required', age: 'Required', color: 'Required' } });
    const fixed = { ...values, email: 'ada@example.com', age: ' 36 ', color: 'g', langs: ['fr'] };
    expect(validateForm(fields, fixed)).toEqual({});
    const accepted = submitForm(fields, fixed);
    expect(accepted).toEqual({
      ok: true,
      result: {
        action: 'accept',
        content: {
          email: 'ada@example.com',
          nick: 'ada',
          age: 36,
          height: 1.7,
          subscribe: true,
          agree: false,
          size: 'm',
          color: 'g',
          tags: ['x'],
          langs: ['fr'],
        },
      },
    });
  });

  it('produces content the protocol validator (and so the mock) accepts', () => {
    const { fields } = describeForm(SCHEMA);
    const content = formContent(fields, {
      ...initialValues(fields),
      email: 'a@b.co',
      age: '3',
      color: 'r',
      birthday: '2000-01-01',
      meeting: '2026-07-28T10:00:00Z',
    });
    expect(validateFormContent(RequestedSchemaSchema.parse(SCHEMA), content)).toEqual([]);
    expect(content.age).toBe(3);
    expect(content.site).toBeUndefined();
  });
});
