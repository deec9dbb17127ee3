import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { maskAuthText } from '../../../lib/state/auth-mask';
import { createInspectorStore } from '../../../lib/state/inspector-store';

/**
 * The inspector's OAuth state: guided mode holds each step until Continue (Cancel stops the flow
 * with the step named), the "why did this fail" summary names the step, the failed check and a
 * fix, and the secrets of a flow are masked in what the inspector shows.
 */

const preview = (step: 'resource-metadata' | 'token') => ({ step, rule: 'a rule', url: 'https://as.example/token', method: 'POST', headers: {} });

describe('guided mode', () => {
  it('lets a step go at once when not guided', async () => {
    const store = createInspectorStore({ lint: false });
    await expect(store.getState().auth.gate(preview('token'))).resolves.toBeUndefined();
    expect(store.getState().auth.pending).toBeUndefined();
  });

  it('holds each step until Continue, and Cancel stops the flow naming the step', async () => {
    const store = createInspectorStore({ lint: false });
    store.getState().auth.setSettings({ guided: true });
    let passed = false;
    const first = store
      .getState()
      .auth.gate(preview('resource-metadata'))
      .then(() => {
        passed = true;
      });
    await Promise.resolve();
    expect(passed).toBe(false);
    expect(store.getState().auth.pending?.step).toBe('resource-metadata');
    store.getState().auth.continueStep();
    await first;
    expect(passed).toBe(true);
    expect(store.getState().auth.pending).toBeUndefined();

    const second = store.getState().auth.gate(preview('token'));
    store.getState().auth.cancelStep();
    await expect(second).rejects.toThrow('cancelled before the token step');
  });
});

describe('the outcome', () => {
  it('names the failed step, its failed check and a fix', () => {
    const store = createInspectorStore({ lint: false });
    const { auth } = store.getState();
    auth.observe({
      auth: {
        step: 'authorization-server-metadata',
        rule: 'r',
        checks: [
          { name: 'authorization server metadata found', ok: true },
          { name: 'issuer is identical to the one the URL was built from', ok: false, detail: 'https://evil vs https://as' },
        ],
      },
    });
    auth.failed('authorization failed at authorization-server-metadata: issuer mismatch');
    const o = store.getState().auth.outcome;
    expect(o).toMatchObject({ ok: false, step: 'authorization-server-metadata', message: 'issuer mismatch' });
    expect(o?.check).toContain('issuer is identical');
    expect(o?.fix).toMatch(/identical `issuer`/);
  });

  it('reports success with the scope asked once a token is issued', () => {
    const store = createInspectorStore({ lint: false });
    const { auth } = store.getState();
    auth.observe({ auth: { step: 'authorization', rule: 'r', checks: [{ name: 'scope: notes:read notes:write', ok: true }] } });
    auth.observe({ auth: { step: 'token', rule: 'r', checks: [{ name: 'access token issued', ok: true }] } });
    expect(store.getState().auth.outcome).toEqual({ ok: true, step: 'token', message: 'Authorized with scope notes:read notes:write' });
  });
});

describe('masking', () => {
  it('hides codes, state, verifiers, secrets and tokens in URLs, forms and JSON, and nothing else', () => {
    expect(maskAuthText('https://app/cb?code=abc123&state=xyz&iss=https%3A%2F%2Fas')).toBe('https://app/cb?code=••••••••&state=••••••••&iss=https%3A%2F%2Fas');
    expect(maskAuthText('grant_type=authorization_code&code=c1&code_verifier=v1&resource=https%3A%2F%2Fmcp')).toBe(
      'grant_type=authorization_code&code=••••••••&code_verifier=••••••••&resource=https%3A%2F%2Fmcp',
    );
    const json = maskAuthText('{\n  "access_token": "eyJhbGciOi.x.y",\n  "token_type": "Bearer",\n  "refresh_token": "r\\"1",\n  "scope": "notes:read"\n}');
    expect(json).not.toContain('eyJ');
    expect(json).not.toContain('r\\"1');
    expect(JSON.parse(json)).toEqual({ access_token: '••••••••', token_type: 'Bearer', refresh_token: '••••••••', scope: 'notes:read' });
    expect(maskAuthText('Basic bG91cGU6c2VjcmV0')).toBe('Basic ••••••••');
  });
});

describe('the Auth lane', () => {
  it('keeps each step on its entry, runs an auth span beside them, and ends an exchange at its answer', () => {
    const store = createInspectorStore({ lint: false });
    const base = { connectionId: 'c1', bytes: 0, lane: 'auth' as const };
    const frames: Frame[] = [
      {
        ...base,
        seq: 0,
        at: 1,
        direction: 'in',
        kind: 'message',
        exchangeId: 'auth:1',
        auth: { step: 'challenge', rule: 'r', checks: [{ name: 'Bearer challenge', ok: true }] },
      },
      {
        ...base,
        seq: 1,
        at: 2,
        direction: 'out',
        kind: 'http-request',
        exchangeId: 'auth:2',
        auth: { step: 'token', rule: 'r', url: 'https://as/token', method: 'POST' },
      },
      {
        ...base,
        seq: 2,
        at: 3,
        direction: 'in',
        kind: 'http-response',
        exchangeId: 'auth:2',
        httpStatus: 400,
        auth: { step: 'token', rule: 'r', checks: [{ name: 'access token issued', ok: false, detail: 'invalid_grant' }] },
      },
    ];
    store.getState().timeline.appendMany(frames);
    const { buffer } = store.getState().timeline;
    const entries = [...Array(3).keys()].map((i) => buffer.get(buffer.stats().firstId + i));
    expect(entries.map((e) => e?.auth?.step)).toEqual(['challenge', 'token', 'token']);
    expect(entries[0]?.status).toBe('✓ Bearer challenge');
    expect(entries[2]).toMatchObject({ isError: true, status: '✗ access token issued' });
    const lane = [...buffer.longSpans()].find((s) => s.kind === 'auth');
    expect(lane).toMatchObject({ label: 'OAuth', count: 3, errors: 1 });
    expect(buffer.span('exchange:auth:2')?.open).toBe(false);
  });
});
