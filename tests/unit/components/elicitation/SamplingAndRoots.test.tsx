// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RootsRequest } from '../../../../components/elicitation/RootsRequest';
import { SamplingRequest } from '../../../../components/elicitation/SamplingRequest';
import { choose, cleanup, click, render, type } from '../../../helpers/render';

/** Sampling answered by a person (CreateMessageResult) and roots listed by a person (ListRootsResult). */

afterEach(cleanup);

const SAMPLING = {
  messages: [
    { role: 'user', content: { type: 'text', text: 'What is the capital of France?' } },
    { role: 'assistant', content: [{ type: 'text', text: 'Let me think.' }] },
  ],
  systemPrompt: 'You are a geography tutor.',
  maxTokens: 5,
  temperature: 0.2,
  modelPreferences: { hints: [{ name: 'claude-3-sonnet' }] },
};

describe('SamplingRequest', () => {
  it('shows the conversation, system prompt and limits', () => {
    const view = render(<SamplingRequest params={SAMPLING} onResult={() => {}} />);
    expect(view.all('[data-testid="sampling-messages"] li').map((li) => [li.getAttribute('data-role'), li.textContent])).toEqual([
      ['user', 'userWhat is the capital of France?'],
      ['assistant', 'assistantLet me think.'],
    ]);
    expect(view.text('[data-testid="sampling-system"]')).toContain('You are a geography tutor.');
    expect(view.text('[data-setting="maxTokens"]')).toBe('maxTokens5');
    expect(view.text('[data-setting="model hints"]')).toContain('claude-3-sonnet');
  });

  it('needs a reply before sending, then answers a CreateMessageResult', async () => {
    const onResult = vi.fn();
    const view = render(<SamplingRequest params={SAMPLING} onResult={onResult} />);
    await click(view.get('button[data-action="send"]'));
    expect(onResult).not.toHaveBeenCalled();
    expect(view.text('[data-testid="error-text"]')).toContain('Write the reply');
    await type(view.get('textarea[name="text"]'), 'Paris.');
    await type(view.get('input[name="model"]'), 'gpt-human');
    await choose(view.get('select[name="stopReason"]'), 'maxTokens');
    await click(view.get('button[data-action="send"]'));
    expect(onResult).toHaveBeenCalledExactlyOnceWith({
      role: 'assistant',
      content: { type: 'text', text: 'Paris.' },
      model: 'gpt-human',
      stopReason: 'maxTokens',
    });
  });

  it('warns when the reply exceeds maxTokens and lets the user refuse', async () => {
    const onRefuse = vi.fn();
    const view = render(<SamplingRequest params={SAMPLING} onResult={() => {}} onRefuse={onRefuse} />);
    await type(view.get('textarea[name="text"]'), 'Paris is the capital and largest city of France.');
    expect(view.text('[data-testid="sampling-warning"]')).toContain('more than maxTokens (5)');
    await click(view.get('button[data-action="refuse"]'));
    expect(onRefuse).toHaveBeenCalledOnce();
  });
});

describe('RootsRequest', () => {
  it('lists file:// roots and answers a ListRootsResult', async () => {
    const onResult = vi.fn();
    const view = render(<RootsRequest onResult={onResult} />);
    await type(view.get('input[aria-label="Root 1 URI"]'), 'file:///home/ada/project');
    await type(view.get('input[aria-label="Root 1 name"]'), 'project');
    await click(view.get('button[data-action="add-root"]'));
    await type(view.get('input[aria-label="Root 2 URI"]'), 'file:///tmp/scratch');
    await click(view.get('button[data-action="send"]'));
    expect(onResult).toHaveBeenCalledExactlyOnceWith({ roots: [{ uri: 'file:///home/ada/project', name: 'project' }, { uri: 'file:///tmp/scratch' }] });
  });

  it('refuses anything but file:// URIs and can remove rows', async () => {
    const onResult = vi.fn();
    const view = render(
      <RootsRequest
        onResult={onResult}
        initialRoots={[
          { uri: 'https://github.com/ada/repo', name: 'repo' },
          { uri: 'file:///ok', name: '' },
        ]}
      />,
    );
    await click(view.get('button[data-action="send"]'));
    expect(onResult).not.toHaveBeenCalled();
    expect(view.text('[data-testid="error-root-0"]')).toBe('Roots must be file:// URIs');
    await click(view.get('button[aria-label="Remove root 1"]'));
    await click(view.get('button[data-action="send"]'));
    expect(onResult).toHaveBeenCalledExactlyOnceWith({ roots: [{ uri: 'file:///ok' }] });
  });
});
