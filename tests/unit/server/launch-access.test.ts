import { describe, expect, it } from 'vitest';
import { createLaunchAccess, LINK_TTL_MS } from '@/lib/server/launch-access';

/** Sign-in links: one-time values that open a browser session, go stale, and are never the token. */
describe('launch access', () => {
  it('opens one session per link, and says "used" to the second try', () => {
    const access = createLaunchAccess('the-token');
    const link = access.mintLink();
    const first = access.exchange(link);
    expect(first.ok).toBe(true);
    expect(access.exchange(link)).toEqual({ ok: false, reason: 'used' });
    if (first.ok) expect(access.verify(first.session, first.key)).toBe(true);
  });

  it('lets a link go stale after its time, and says "expired"', () => {
    let now = 1_000;
    const access = createLaunchAccess('the-token', { now: () => now });
    const fresh = access.mintLink();
    const stale = access.mintLink();
    now += LINK_TTL_MS - 1;
    expect(access.exchange(fresh).ok).toBe(true);
    now += 1;
    expect(access.exchange(stale)).toEqual({ ok: false, reason: 'expired' });
    expect(access.exchange(stale)).toEqual({ ok: false, reason: 'expired' });
  });

  it('never takes the control token as a link unless the user chose it (LOUPE_TOKEN)', () => {
    expect(createLaunchAccess('the-token').exchange('the-token')).toEqual({ ok: false, reason: 'control-token' });
    expect(createLaunchAccess('the-token').exchange('a-guess')).toEqual({ ok: false, reason: 'invalid' });
    const chosen = createLaunchAccess('mine', { reusableLink: true });
    expect(chosen.mintLink()).toBe('mine');
    expect(chosen.exchange('mine').ok).toBe(true);
    expect(chosen.exchange('mine').ok).toBe(true);
  });
});
