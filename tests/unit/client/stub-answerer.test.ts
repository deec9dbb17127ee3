import { describe, expect, it } from 'vitest';
import { stubAnswerer } from '../../../lib/client/headless';

/**
 * What a 2025-11-25 server gets back when it asks the headless client something on a stream:
 * the CLI's stub flags, as for 2026-07-28 input requests; a form stub over the schema's defaults
 * (SEP-1034); an elicitation nobody can answer is cancelled; a request with no stub is refused.
 */

const form = {
  message: 'Delete?',
  requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' }, reason: { type: 'string', default: 'tidy' } } },
};

describe('stubAnswerer', () => {
  it('accepts a form with the stub content over the schema defaults', async () => {
    expect(await stubAnswerer({ elicit: { confirm: true } })('elicitation/create', form)).toEqual({
      result: { action: 'accept', content: { reason: 'tidy', confirm: true } },
    });
    expect(await stubAnswerer({ elicit: { confirm: true, reason: 'mine' } })('elicitation/create', form)).toEqual({
      result: { action: 'accept', content: { reason: 'mine', confirm: true } },
    });
    expect(await stubAnswerer({ elicit: { action: 'decline' } })('elicitation/create', form)).toEqual({ result: { action: 'decline' } });
  });

  it('answers sampling and roots from their stubs', async () => {
    const a = stubAnswerer({ sampling: 'Paris', roots: [{ uri: 'file:///work' }] });
    expect(await a('sampling/createMessage', { messages: [], maxTokens: 10 })).toMatchObject({
      result: { role: 'assistant', content: { type: 'text', text: 'Paris' } },
    });
    expect(await a('roots/list', undefined)).toEqual({ result: { roots: [{ uri: 'file:///work' }] } });
  });

  it('cancels an elicitation without a stub and refuses what it cannot answer', async () => {
    const a = stubAnswerer({});
    expect(await a('elicitation/create', form)).toEqual({ result: { action: 'cancel' } });
    expect(await a('sampling/createMessage', { messages: [] })).toMatchObject({ error: { code: -32601 } });
    expect(await a('tools/list', undefined)).toMatchObject({ error: { code: -32601 } });
  });
});
