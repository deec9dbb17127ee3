// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UrlElicitation } from '../../../../components/elicitation/UrlElicitation';
import type { ElicitResult } from '../../../../lib/protocol';
import { cleanup, click, render } from '../../../helpers/render';

/** URL mode: full URL with the domain highlighted, punycode warnings, consent first, no claim of completion. */

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function setup(url: string) {
  const results: ElicitResult[] = [];
  const open = vi.spyOn(window, 'open').mockImplementation(() => null);
  const view = render(<UrlElicitation message="Authorize the GitHub app" url={url} onResult={(r) => results.push(r)} />);
  const button = (action: string) => view.get<HTMLButtonElement>(`button[data-action="${action}"]`);
  return { view, results, open, button };
}

describe('UrlElicitation', () => {
  it('shows the full URL as text with its registrable domain highlighted', () => {
    const { view } = setup('https://login.github.com/oauth/authorize?client_id=abc&state=xyz');
    expect(view.text('[data-testid="url-full"]')).toBe('https://login.github.com/oauth/authorize?client_id=abc&state=xyz');
    expect(view.text('[data-testid="url-domain"]')).toBe('github.com');
    expect(view.get('[data-testid="url-domain"]').tagName).toBe('MARK');
    expect(view.query('a[href]')).toBeNull();
    expect(view.query('[data-testid="url-warnings"]')).toBeNull();
  });

  it('requires explicit consent before opening, then opens without opener or referrer', async () => {
    const { view, results, open, button } = setup('https://github.com/login/oauth/authorize?client_id=abc');
    expect(button('open').disabled).toBe(true);
    await click(button('open'));
    expect(open).not.toHaveBeenCalled();
    expect(results).toEqual([]);
    await click(view.get('[data-testid="url-consent"]'));
    expect(button('open').disabled).toBe(false);
    await click(button('open'));
    expect(open).toHaveBeenCalledExactlyOnceWith('https://github.com/login/oauth/authorize?client_id=abc', '_blank', 'noopener,noreferrer');
    expect(results).toEqual([{ action: 'accept' }]);
  });

  it('after accept offers Retry and Cancel and never claims the flow finished', async () => {
    const { view, results, button } = setup('https://example.com/pay');
    await click(view.get('[data-testid="url-consent"]'));
    await click(button('open'));
    expect(view.get('[data-testid="url-elicitation"]').getAttribute('data-state')).toBe('opened');
    const status = view.text('[data-testid="url-status"]');
    expect(status).toContain('not completion');
    expect(status).not.toMatch(/\b(completed|done|success)\b/i);
    expect(view.query('button[data-action="open"]')).toBeNull();
    await click(button('retry'));
    expect(view.text('[data-testid="url-status"]')).toContain('Retried 1 time.');
    await click(button('cancel'));
    expect(results).toEqual([{ action: 'accept' }, { action: 'accept' }, { action: 'cancel' }]);
  });

  it('warns about punycode hosts and shows how they display', () => {
    const { view } = setup('https://xn--80ak6aa92e.com/login');
    expect(view.text('[data-testid="url-domain"]')).toBe('xn--80ak6aa92e.com');
    const warnings = view.all('[data-testid="url-warning"]').map((w) => w.textContent);
    expect(warnings[0]).toContain('internationalized');
    expect(warnings[0]).toContain('аррӏе.com');
    expect(warnings[1]).toContain('Cyrillic and Latin');
    expect(view.get('[data-testid="url-warnings"]').getAttribute('role')).toBe('alert');
  });

  it('flags a host written with mixed scripts and user info that hides the real host', () => {
    const { view } = setup('https://paypal.com@xn--pypal-4ve.com/');
    const text = view.text('[data-testid="url-warnings"]');
    expect(text).toContain('this link goes to xn--pypal-4ve.com');
    expect(text).toContain('displays as pаypal.com');
    expect(text).toContain('mixes Latin and Cyrillic letters');
    expect(view.text('[data-testid="url-domain"]')).toBe('xn--pypal-4ve.com');
  });

  it('cannot open what is not an http(s) URL, but can still decline or cancel', async () => {
    const { view, results, open, button } = setup('javascript:alert(1)');
    expect(view.text('[data-testid="url-blocked"]')).toContain('Only http and https');
    expect(view.get<HTMLInputElement>('[data-testid="url-consent"]').disabled).toBe(true);
    expect(button('open').disabled).toBe(true);
    await click(button('decline'));
    expect(open).not.toHaveBeenCalled();
    expect(results).toEqual([{ action: 'decline' }]);
  });
});
