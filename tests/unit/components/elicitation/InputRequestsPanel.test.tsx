// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputRequestsPanel } from '../../../../components/elicitation/InputRequestsPanel';
import { cleanup, click, render, type } from '../../../helpers/render';

/** One prompt per input request key; InputResponses leave once every key is answered. */

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

// The conformance fixture's multiple-inputs round: elicitation, sampling and roots at once.
const REQUESTS = {
  user_name: {
    method: 'elicitation/create',
    params: { mode: 'form', message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  },
  greeting: {
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 },
  },
  client_roots: { method: 'roots/list', params: {} },
};

describe('InputRequestsPanel', () => {
  it('renders the right prompt for each key', () => {
    const view = render(<InputRequestsPanel inputRequests={REQUESTS} onSubmit={() => {}} />);
    expect(view.all('section[data-key]').map((s) => s.getAttribute('data-key'))).toEqual(['user_name', 'greeting', 'client_roots']);
    expect(view.query('section[data-key="user_name"] [data-testid="elicitation-form"]')).not.toBeNull();
    expect(view.query('section[data-key="greeting"] [data-testid="sampling-request"]')).not.toBeNull();
    expect(view.query('section[data-key="client_roots"] [data-testid="roots-request"]')).not.toBeNull();
    expect(view.get('[data-testid="input-requests"]').getAttribute('data-pending')).toBe('3');
  });

  it('submits InputResponses only when every key has an answer', async () => {
    const onSubmit = vi.fn();
    const view = render(<InputRequestsPanel inputRequests={REQUESTS} onSubmit={onSubmit} />);
    await type(view.get('section[data-key="user_name"] input[name="name"]'), 'Ada');
    await click(view.get('section[data-key="user_name"] button[data-action="accept"]'));
    await type(view.get('section[data-key="greeting"] textarea[name="text"]'), 'Hello there!');
    await click(view.get('section[data-key="greeting"] button[data-action="send"]'));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(view.get('section[data-key="user_name"]').getAttribute('data-answered')).toBe('true');
    expect(view.text('section[data-key="user_name"] [data-testid="answered"]')).toBe('answered: accept');
    await type(view.get('section[data-key="client_roots"] input[name="uri"]'), 'file:///work');
    await click(view.get('section[data-key="client_roots"] button[data-action="send"]'));
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith({
      user_name: { action: 'accept', content: { name: 'Ada' } },
      greeting: { role: 'assistant', content: { type: 'text', text: 'Hello there!' }, model: 'human', stopReason: 'endTurn' },
      client_roots: { roots: [{ uri: 'file:///work' }] },
    });
  });

  it('sends each answer alone in `each` mode (tasks/update takes partial answers)', async () => {
    const onSubmit = vi.fn();
    const two = {
      first: {
        method: 'elicitation/create',
        params: { message: 'First answer', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } },
      },
      second: {
        method: 'elicitation/create',
        params: { message: 'Second answer', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } },
      },
    };
    const view = render(<InputRequestsPanel inputRequests={two} onSubmit={onSubmit} mode="each" />);
    await click(view.get('section[data-key="second"] button[data-action="decline"]'));
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith({ second: { action: 'decline' } });
    // The next poll lists only the key still pending; the answered one is forgotten.
    view.rerender(<InputRequestsPanel inputRequests={{ first: two.first }} onSubmit={onSubmit} mode="each" />);
    expect(view.all('section[data-key]').map((s) => s.getAttribute('data-answered'))).toEqual(['false']);
  });

  it('keeps answers across polls that repeat the same keys, so nothing is asked twice', async () => {
    const onSubmit = vi.fn();
    const view = render(<InputRequestsPanel inputRequests={REQUESTS} onSubmit={onSubmit} />);
    await type(view.get('section[data-key="user_name"] input[name="name"]'), 'Ada');
    await click(view.get('section[data-key="user_name"] button[data-action="accept"]'));
    view.rerender(<InputRequestsPanel inputRequests={{ ...REQUESTS }} onSubmit={onSubmit} />);
    expect(view.get('section[data-key="user_name"]').getAttribute('data-answered')).toBe('true');
    expect(view.get('[data-testid="input-requests"]').getAttribute('data-pending')).toBe('2');
  });

  it('re-submits when a URL elicitation is retried, and reports refusals', async () => {
    vi.spyOn(window, 'open').mockImplementation(() => null);
    const onSubmit = vi.fn();
    const onRefuse = vi.fn();
    const view = render(
      <InputRequestsPanel
        inputRequests={{
          login: { method: 'elicitation/create', params: { mode: 'url', message: 'Log in', url: 'https://example.com/login' } },
          bad: { method: 'ping' },
        }}
        onSubmit={onSubmit}
        onRefuse={onRefuse}
      />,
    );
    expect(view.text('[data-testid="invalid-request"]')).toContain('unknown input request method "ping"');
    await click(view.get('section[data-key="bad"] button[data-action="refuse"]'));
    expect(onRefuse).toHaveBeenCalledWith('bad');
    await click(view.get('[data-testid="url-consent"]'));
    await click(view.get('button[data-action="open"]'));
    expect(onSubmit).not.toHaveBeenCalled();
    view.rerender(
      <InputRequestsPanel
        inputRequests={{ login: { method: 'elicitation/create', params: { mode: 'url', message: 'Log in', url: 'https://example.com/login' } } }}
        onSubmit={onSubmit}
        onRefuse={onRefuse}
      />,
    );
    await click(view.get('button[data-action="retry"]'));
    expect(onSubmit).toHaveBeenLastCalledWith({ login: { action: 'accept' } });
    await click(view.get('button[data-action="cancel"]'));
    expect(onSubmit).toHaveBeenLastCalledWith({ login: { action: 'cancel' } });
  });
});
