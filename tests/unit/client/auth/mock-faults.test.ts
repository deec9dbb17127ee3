import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createMswHandlers } from '../../../../lib/adapters/msw';
import { createAuthorizedFetch } from '../../../../lib/client/auth/authorized-fetch';
import { createHeadlessSession } from '../../../../lib/client/headless';
import type { MockEngine } from '../../../../lib/engine';
import { oauthScenario } from '../../../../lib/scenario/builtins/oauth';
import type { AuthSpec } from '../../../../lib/scenario/auth-schema';
import { createFakeClock, type FakeClock } from '../../../helpers/fake-clock';

/**
 * The mock's authorization faults, each met by Loupe's headless client (its own OAuth, the one
 * the CLI and the inspector use) against the built-in `oauth` scenario served through MSW:
 * what the client does about a wrong `iss`, tokens that arrive expired, a refresh answered
 * `invalid_grant`, and a slow token endpoint.
 */

const URL_ = 'http://localhost/mcp';
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function setup(server: Partial<AuthSpec['server']>, faults: Partial<AuthSpec['faults']>): { engine: MockEngine; clock: FakeClock } {
  const clock = createFakeClock(Date.now());
  const auth = oauthScenario.auth ?? {};
  const { handlers, engine } = createMswHandlers({ ...oauthScenario, auth: { ...auth, server: { ...auth.server, ...server }, faults } }, { clock });
  const msw = setupServer(...handlers);
  msw.listen({ onUnhandledRequest: 'error' });
  cleanups.push(
    () => engine.close(),
    () => msw.close(),
  );
  return { engine, clock };
}

function client(timeoutMs = 10_000) {
  const auth = createAuthorizedFetch({ redirectUri: 'http://127.0.0.1:9/callback' });
  const session = createHeadlessSession({ url: URL_, era: 'modern', auth, timeoutMs });
  cleanups.push(() => session.close());
  return { auth, session };
}

type Grant = { grant: unknown; status: number | undefined };
const tokenCalls = (engine: MockEngine): Grant[] =>
  engine.journal
    .entries()
    .filter((e) => e.method === 'oauth:token')
    .map((e) => {
      const body = e.requestBody as { oauth?: { params?: { grant_type?: unknown } } } | undefined;
      return { grant: body?.oauth?.params?.grant_type, status: e.status };
    });
const count = (engine: MockEngine, method: string) => engine.journal.entries().filter((e) => e.method === method).length;
const grade = (engine: MockEngine, id: string) => engine.reportCard().grades.find((g) => g.id === id)?.status;

describe('auth faults against the headless client', () => {
  it('wrong iss: the client refuses the authorization response and never spends the code', async () => {
    const { engine } = setup({ issInRedirect: 'wrong' }, {});
    const { auth, session } = client();
    expect((await session.listTools()).outcome.type).not.toBe('complete');
    expect(auth.lastError?.step).toBe('callback');
    expect(auth.lastError?.message).toMatch(/iss/);
    expect(tokenCalls(engine)).toEqual([]);
    expect(grade(engine, 'sep-2468-client-compare-iss-supported')).toBe('pass');
  });

  it('expired tokens: the client authorizes once, retries once, and reports the 401 instead of looping', async () => {
    const { engine } = setup({}, { expiredTokens: true });
    const { session } = client();
    const r = await session.listTools();
    expect(r.outcome).toMatchObject({ type: 'error', httpStatus: 401, error: { message: 'Unauthorized: the access token expired' } });
    expect(count(engine, 'oauth:authorize')).toBe(1);
    expect(tokenCalls(engine)).toEqual([{ grant: 'authorization_code', status: 200 }]);
    // The next request refreshes first (the token is past its expiry), gets another dead token, and stops again.
    expect((await session.listTools()).outcome).toMatchObject({ type: 'error', httpStatus: 401 });
    expect(count(engine, 'oauth:authorize')).toBe(1);
    expect(tokenCalls(engine).length).toBeLessThanOrEqual(3);
  });

  it('invalid_grant on refresh: the client falls back to a new authorization and the request succeeds', async () => {
    const { engine, clock } = setup({}, { refreshInvalidGrant: true });
    const { session } = client();
    expect((await session.listTools()).outcome.type).toBe('complete');
    // Two hours later (on the server's clock) the access token has expired; the client still believes it valid.
    clock.advance(2 * 3600_000);
    expect((await session.listTools()).outcome.type).toBe('complete');
    expect(tokenCalls(engine)).toEqual([
      { grant: 'authorization_code', status: 200 },
      { grant: 'refresh_token', status: 400 },
      { grant: 'authorization_code', status: 200 },
    ]);
    expect(count(engine, 'oauth:authorize')).toBe(2);
  });

  it('slow token endpoint: the client waits for the answer, and a client deadline ends the wait with an error', async () => {
    const { engine, clock } = setup({}, { tokenDelayMs: 5_000 });
    // The server's clock stands still: the token answer never comes, and the client's deadline decides.
    const impatient = client(500).session;
    const gaveUp = await impatient.listTools();
    expect(gaveUp.outcome).toMatchObject({ type: 'failure', reason: 'timeout' });
    expect(tokenCalls(engine)).toEqual([]);

    const { session } = client();
    let done = false;
    const pending = session.listTools().finally(() => {
      done = true;
    });
    // Five server seconds pass while the client waits; then the token arrives and the call goes through.
    for (let i = 0; i < 200 && !done; i++) {
      await clock.advanceAsync(100);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect((await pending).outcome.type).toBe('complete');
    const token = engine.journal.entries().filter((e) => e.method === 'oauth:token' && e.status === 200);
    expect(token.length).toBeGreaterThan(0);
  });
});
