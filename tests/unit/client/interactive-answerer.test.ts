import { describe, expect, it } from 'vitest';
import { createInteractiveAnswerer, type AskedServerRequest } from '../../../lib/client/interactive-answerer';

/** The inspector's answers to a 2025-11-25 server's requests: who is asked, and what a refusal says. */
describe('createInteractiveAnswerer', () => {
  const setup = (roots?: () => { uri: string; name?: string }[]) => {
    const asked: AskedServerRequest[] = [];
    const ac = new AbortController();
    const answer = createInteractiveAnswerer(
      async (r) => {
        asked.push(r);
        return { result: { action: 'accept', content: { ok: true } } };
      },
      ac.signal,
      roots,
    );
    return { asked, ac, answer };
  };

  it('asks the person for elicitation and sampling, and passes their answer on as the result', async () => {
    const { asked, answer } = setup();
    expect(await answer('elicitation/create', { mode: 'form', message: 'Sure?' })).toEqual({ result: { action: 'accept', content: { ok: true } } });
    await answer('sampling/createMessage', undefined);
    expect(asked).toEqual([
      { method: 'elicitation/create', params: { mode: 'form', message: 'Sure?' } },
      { method: 'sampling/createMessage', params: {} },
    ]);
  });

  it('answers roots/list with the configured roots (none by default) without asking anyone', async () => {
    expect(await setup().answer('roots/list', {})).toEqual({ result: { roots: [] } });
    const { asked, answer } = setup(() => [{ uri: 'file:///work', name: 'work' }]);
    expect(await answer('roots/list', {})).toEqual({ result: { roots: [{ uri: 'file:///work', name: 'work' }] } });
    expect(asked).toEqual([]);
  });

  it('refuses unknown methods with -32601, and after Disconnect cancels elicitation and rejects sampling as the spec says', async () => {
    const { asked, ac, answer } = setup();
    expect(await answer('tools/list', {})).toMatchObject({ error: { code: -32601 } });
    ac.abort();
    expect(await answer('elicitation/create', { mode: 'form' })).toEqual({ result: { action: 'cancel' } });
    expect(await answer('sampling/createMessage', { messages: [] })).toEqual({ error: { code: -1, message: 'User rejected sampling request' } });
    expect(asked).toEqual([]);
  });
});
