// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ElicitationForm } from '../../../../components/elicitation/ElicitationForm';
import type { ElicitResult } from '../../../../lib/protocol';
import { blur, choose, cleanup, click, render, type } from '../../../helpers/render';

/** The generated form: every kind renders, defaults prefill, validation blocks, the three answers. */

afterEach(cleanup);

const SCHEMA = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', title: 'Email' },
    site: { type: 'string', format: 'uri', title: 'Homepage' },
    birthday: { type: 'string', format: 'date' },
    meeting: { type: 'string', format: 'date-time' },
    nick: { type: 'string', minLength: 2, maxLength: 8, default: 'ada', description: 'What friends call you' },
    age: { type: 'integer', minimum: 0, maximum: 150, title: 'Age' },
    height: { type: 'number', default: 1.7 },
    subscribe: { type: 'boolean', default: true, title: 'Subscribe' },
    size: { type: 'string', enum: ['s', 'm', 'l'], default: 'm' },
    color: {
      type: 'string',
      oneOf: [
        { const: 'r', title: 'Red' },
        { const: 'g', title: 'Green' },
      ],
    },
    legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, default: ['x'] },
    langs: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'en', title: 'English' },
          { const: 'fr', title: 'French' },
        ],
      },
      maxItems: 1,
    },
  },
  required: ['email', 'age', 'color'],
};

function setup(schema: unknown = SCHEMA) {
  const results: ElicitResult[] = [];
  const view = render(<ElicitationForm message="Tell us about you" requestedSchema={schema} onResult={(r) => results.push(r)} />);
  const input = (name: string) => view.get<HTMLInputElement>(`[name="${name}"]`);
  return { view, results, input, submit: () => click(view.get('button[data-action="accept"]')) };
}

describe('ElicitationForm', () => {
  it('renders every primitive kind with the right control', () => {
    const { view, input } = setup();
    expect(view.text()).toContain('Tell us about you');
    expect(input('email').type).toBe('email');
    expect(input('site').type).toBe('url');
    expect(input('birthday').type).toBe('date');
    expect(input('meeting').placeholder).toBe('2026-07-28T14:30:00Z');
    expect(input('age').inputMode).toBe('numeric');
    expect(input('height').inputMode).toBe('decimal');
    expect(input('subscribe').type).toBe('checkbox');
    expect(view.get<HTMLSelectElement>('select[name="size"]').options.length).toBe(4);
    expect([...view.get<HTMLSelectElement>('select[name="color"]').options].map((o) => o.text)).toEqual(['Choose…', 'Red', 'Green']);
    expect([...view.get<HTMLSelectElement>('select[name="legacy"]').options].map((o) => o.text)).toEqual(['(none)', 'Alpha', 'Beta']);
    expect(view.all('input[name="tags[]"]')).toHaveLength(2);
    expect(view.text('[data-field="langs"]')).toContain('French');
    expect(view.text('[data-field="nick"]')).toContain('What friends call you');
  });

  it('pre-fills defaults and marks required fields', () => {
    const { view, input } = setup();
    expect(input('nick').value).toBe('ada');
    expect(input('height').value).toBe('1.7');
    expect(input('subscribe').checked).toBe(true);
    expect(view.get<HTMLSelectElement>('select[name="size"]').value).toBe('m');
    expect(view.all<HTMLInputElement>('input[name="tags[]"]').map((c) => c.checked)).toEqual([true, false]);
    expect(view.all('[data-testid^="required-"]').map((e) => e.getAttribute('data-testid'))).toEqual(['required-email', 'required-age', 'required-color']);
    expect(input('email').getAttribute('aria-required')).toBe('true');
    expect(input('site').getAttribute('aria-required')).toBeNull();
  });

  it('blocks a submit with invalid input and shows inline messages', async () => {
    const { view, input, results, submit } = setup();
    await type(input('email'), 'not-an-email');
    expect(view.text('[data-testid="error-email"]')).toBe('');
    await blur(input('email'));
    expect(view.text('[data-testid="error-email"]')).toBe('Enter an email address like name@example.com');
    await type(input('age'), '200');
    await type(input('nick'), 'a');
    await submit();
    expect(results).toEqual([]);
    expect(view.text('[data-testid="error-age"]')).toBe('Must be at most 150');
    expect(view.text('[data-testid="error-nick"]')).toBe('Enter at least 2 characters');
    expect(view.text('[data-testid="error-color"]')).toBe('Required');
    expect(view.get('[data-field="age"]').getAttribute('data-invalid')).toBe('true');
  });

  it('accepts with typed content once the input is valid', async () => {
    const { view, input, results, submit } = setup();
    await type(input('email'), 'ada@example.com');
    await type(input('age'), '36');
    await choose(view.get('select[name="color"]'), 'g');
    await click(input('subscribe'));
    await click(view.all('input[name="langs[]"]')[1]);
    await submit();
    expect(results).toEqual([
      {
        action: 'accept',
        content: { email: 'ada@example.com', nick: 'ada', age: 36, height: 1.7, subscribe: false, size: 'm', color: 'g', tags: ['x'], langs: ['fr'] },
      },
    ]);
  });

  it('answers decline and cancel without content, whatever the fields hold', async () => {
    const { view, results } = setup();
    await click(view.get('button[data-action="decline"]'));
    await click(view.get('button[data-action="cancel"]'));
    expect(results).toEqual([{ action: 'decline' }, { action: 'cancel' }]);
  });

  it('warns when the form asks for a secret and names unusable properties', () => {
    const { view } = setup({ type: 'object', properties: { password: { type: 'string', title: 'Password' }, nested: { type: 'object' } } });
    expect(view.text('[data-testid="secret-warning"]')).toContain('Password: "password" in the name');
    expect(view.text('[data-testid="schema-problem"]')).toContain('"nested"');
    expect(view.query('[name="nested"]')).toBeNull();
  });

  it('works with a mock-shaped schema (the demo approval) in one click', async () => {
    const onResult = vi.fn();
    const view = render(
      <ElicitationForm
        message="Approve?"
        requestedSchema={{ type: 'object', properties: { approved: { type: 'boolean', title: 'Approve the outline?' } }, required: ['approved'] }}
        onResult={onResult}
      />,
    );
    await click(view.get('input[name="approved"]'));
    await click(view.get('button[data-action="accept"]'));
    expect(onResult).toHaveBeenCalledWith({ action: 'accept', content: { approved: true } });
  });
});
