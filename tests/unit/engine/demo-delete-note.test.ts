import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import type { Scenario } from '../../../lib/scenario/schema';
import { createMemoryStores } from '../../../lib/store/memory';
import { openSqliteStores } from '../../../lib/store/sqlite/sqlite-stores';
import type { Stores } from '../../../lib/store/types';
import { createFakeClock, type FakeClock } from '../../helpers/fake-clock';
import { CAPS, callTool, type RpcOptions } from '../../helpers/rpc';

/** delete_note: MRTR confirmation with a one-time nonce, exactly seed 000's accept/decline/cancel table. */

const SECRET = 'delete-note-test-secret';
const opened: { engine: MockEngine; stores: Stores }[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const { engine, stores } of opened.splice(0)) {
    engine.close();
    stores.close();
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function demo(settings: Partial<Scenario['settings']> = {}): Scenario {
  const base = getBuiltinScenario('demo')!;
  return { ...base, settings: { ...base.settings, ...settings } };
}

function setup(options: { scenario?: Scenario; stores?: Stores; clock?: FakeClock; replayMaxEntries?: number } = {}) {
  const scenario = options.scenario ?? demo();
  const clock = options.clock ?? createFakeClock();
  const stores = options.stores ?? createMemoryStores({ replayMaxEntries: options.replayMaxEntries ?? scenario.settings.replayStoreMaxEntries });
  const engine = createMockEngine({ scenario, stores, clock, secret: SECRET });
  opened.push({ engine, stores });
  return { engine, stores, clock };
}

const form = (o: RpcOptions = {}): RpcOptions => ({ caps: CAPS.form, ...o });

/** Round 1: returns the requestState (and the whole reply). */
async function ask(engine: MockEngine, noteId = 'note-1', o: RpcOptions = {}) {
  const reply = await callTool(engine, 'delete_note', { noteId }, form(o));
  expect(reply.status).toBe(200);
  expect(reply.body.result.resultType).toBe('input_required');
  return { state: reply.body.result.requestState as string, reply };
}

/** Retry with an answer (or none) and the requestState. */
function answer(engine: MockEngine, noteId: string, requestState: string, response?: unknown, o: RpcOptions = {}) {
  const extra: Record<string, unknown> = { requestState };
  if (response !== undefined) extra.inputResponses = { confirm_delete: response };
  return callTool(engine, 'delete_note', { noteId }, { ...form(o), extra });
}

const ACCEPT = { action: 'accept', content: { confirm: true } };
const DECLINE = { action: 'decline' };
const CANCEL = { action: 'cancel' };

async function noteIds(engine: MockEngine): Promise<string[]> {
  const r = await callTool(engine, 'search_notes', {});
  return r.body.result.structuredContent.notes.map((n: { id: string }) => n.id);
}

describe('delete_note round 1', () => {
  it('asks for a form confirmation naming the note, with a signed requestState', async () => {
    const { engine } = setup();
    const { reply } = await ask(engine);
    expect(reply.body.result).toEqual({
      resultType: 'input_required',
      inputRequests: {
        confirm_delete: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Delete note "Quarterly planning"? This cannot be undone.',
            requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Delete it' } }, required: ['confirm'] },
          },
        },
      },
      requestState: expect.stringMatching(/^[\w-]+\.[\w-]+$/),
    });
  });

  it('answers an unknown note with a tool error, not a protocol error', async () => {
    const { engine } = setup();
    const r = await callTool(engine, 'delete_note', { noteId: 'note-404' }, form());
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({
      resultType: 'complete',
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('No note with id "note-404"') }],
    });
  });

  it.each([
    ['no elicitation capability', CAPS.none],
    ['URL mode only', CAPS.url],
  ])('refuses with -32021 when the client declared %s', async (_label, caps) => {
    const { engine } = setup();
    const r = await callTool(engine, 'delete_note', { noteId: 'note-1' }, { caps });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
  });

  it('accepts an empty elicitation object as form support', async () => {
    const { engine } = setup();
    await ask(engine, 'note-1', { caps: { elicitation: {} } });
  });

  it('refuses a missing noteId with -32602', async () => {
    const { engine } = setup();
    const r = await callTool(engine, 'delete_note', {}, form());
    expect(r.body.error.code).toBe(-32602);
  });
});

describe("delete_note follows seed 000's accept/decline/cancel table", () => {
  // Factor   | accept                     | decline                  | cancel
  // Meaning  | user submitted             | user refused             | user dismissed
  // Action   | validate content, continue | complete refusal result  | stop safely
  // Nonce    | consumed with the delete   | consumed, no delete      | not consumed
  // Retry    | no                         | no                       | yes, until expiry
  // Result   | deleted: true              | deleted: false           | deleted: false
  const rows = [
    { action: 'accept', response: ACCEPT, result: { deleted: true, noteId: 'note-2' }, deletes: true, consumed: true, retryLater: false },
    {
      action: 'decline',
      response: DECLINE,
      result: { deleted: false, noteId: 'note-2', reason: 'declined' },
      deletes: false,
      consumed: true,
      retryLater: false,
    },
    {
      action: 'cancel',
      response: CANCEL,
      result: { deleted: false, noteId: 'note-2', reason: 'cancelled' },
      deletes: false,
      consumed: false,
      retryLater: true,
    },
  ];

  it.each(rows)('$action: result, server action, nonce and retry', async ({ response, result, deletes, consumed, retryLater }) => {
    const { engine, stores, clock } = setup();
    const { state } = await ask(engine, 'note-2');
    const r = await answer(engine, 'note-2', state, response);
    // Result
    expect(r.status).toBe(200);
    expect(r.body.result.resultType).toBe('complete');
    expect(r.body.result.isError).toBeUndefined();
    expect(r.body.result.structuredContent).toMatchObject(result);
    // Server action
    expect((await noteIds(engine)).includes('note-2')).toBe(!deletes);
    // Nonce
    expect(await stores.replay.size(clock.now())).toBe(consumed ? 1 : 0);
    // Retry later with the same requestState
    clock.advance(60_000);
    const again = await answer(engine, 'note-2', state, ACCEPT);
    if (retryLater) {
      expect(again.body.result.structuredContent).toEqual({ deleted: true, noteId: 'note-2' });
    } else {
      expect(again.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('requestState already used (replay refused)') });
    }
  });

  it('accept validates the content: a non-boolean confirm is -32602 and spends nothing', async () => {
    const { engine, stores, clock } = setup();
    const { state } = await ask(engine);
    for (const bad of [{ action: 'accept', content: { confirm: 'yes' } }, { action: 'accept', content: {} }, { action: 'maybe' }]) {
      const r = await answer(engine, 'note-1', state, bad);
      expect(r.body.error.code).toBe(-32602);
    }
    expect(await stores.replay.size(clock.now())).toBe(0);
    expect((await answer(engine, 'note-1', state, ACCEPT)).body.result.structuredContent.deleted).toBe(true);
  });

  it('accept with confirm: false is a refusal: nothing deleted, nonce consumed', async () => {
    const { engine, stores, clock } = setup();
    const { state } = await ask(engine);
    const r = await answer(engine, 'note-1', state, { action: 'accept', content: { confirm: false } });
    expect(r.body.result.structuredContent).toEqual({ deleted: false, noteId: 'note-1', reason: 'declined' });
    expect(await noteIds(engine)).toContain('note-1');
    expect(await stores.replay.size(clock.now())).toBe(1);
    expect((await answer(engine, 'note-1', state, ACCEPT)).body.error.code).toBe(-32602);
  });

  it('a retry without the answer asks again with the very same requestState', async () => {
    const { engine } = setup();
    const { state, reply } = await ask(engine);
    const again = await answer(engine, 'note-1', state);
    expect(again.body.result).toEqual(reply.body.result);
    expect((await answer(engine, 'note-1', state, ACCEPT)).body.result.structuredContent.deleted).toBe(true);
  });

  it('cancel can be repeated, then accept works with the same state', async () => {
    const { engine } = setup();
    const { state } = await ask(engine);
    for (let i = 0; i < 3; i++) expect((await answer(engine, 'note-1', state, CANCEL)).body.result.structuredContent.reason).toBe('cancelled');
    expect((await answer(engine, 'note-1', state, ACCEPT)).body.result.structuredContent).toEqual({ deleted: true, noteId: 'note-1' });
    expect(await noteIds(engine)).not.toContain('note-1');
  });

  it('a concurrent burst of accepts with one state deletes once and refuses the rest', async () => {
    const { engine } = setup();
    const { state } = await ask(engine);
    const replies = await Promise.all(Array.from({ length: 20 }, () => answer(engine, 'note-1', state, ACCEPT)));
    expect(replies.filter((r) => r.body.result?.structuredContent?.deleted === true)).toHaveLength(1);
    expect(replies.filter((r) => r.body.error?.code === -32602)).toHaveLength(19);
  });
});

describe('delete_note requestState integrity', () => {
  it('expires 300 s after it was issued, even after a cancel', async () => {
    const { engine, clock } = setup();
    const { state } = await ask(engine);
    clock.advance(299_999);
    expect((await answer(engine, 'note-1', state, CANCEL)).body.result.structuredContent.reason).toBe('cancelled');
    clock.advance(1);
    const r = await answer(engine, 'note-1', state, ACCEPT);
    expect(r.body.error).toMatchObject({ code: -32602, message: 'Invalid requestState: requestState has expired' });
    expect(await noteIds(engine)).toContain('note-1');
  });

  it('refuses a tampered state', async () => {
    const { engine } = setup();
    const { state } = await ask(engine);
    const [body, mac] = state.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...payload, e: payload.e + 3_600_000 })).toString('base64url')}.${mac}`;
    const flipped = `${body.slice(0, -1)}${body.endsWith('A') ? 'B' : 'A'}.${mac}`;
    for (const bad of [forged, flipped, `${body}.${mac.slice(2)}`, 'not-a-state', `${body}`]) {
      const r = await answer(engine, 'note-1', bad, ACCEPT);
      expect(r.body.error.code).toBe(-32602);
      expect(r.body.error.message).toMatch(/^Invalid requestState: /);
    }
    expect(await noteIds(engine)).toContain('note-1');
  });

  it('says an oversized state is too long (it said "must be a string")', async () => {
    const { engine } = setup();
    const r = await answer(engine, 'note-1', 'x'.repeat(70_000), ACCEPT);
    expect(r.body.error).toMatchObject({
      code: -32602,
      message: 'Invalid requestState: requestState is 70000 characters, longer than any this server issues (64 KiB at most)',
    });
  });

  it('refuses a state minted for another principal', async () => {
    const { engine } = setup();
    const { state } = await ask(engine, 'note-1', { headers: { Authorization: 'Bearer alice-token' } });
    const bob = await answer(engine, 'note-1', state, ACCEPT, { headers: { Authorization: 'Bearer bob-token' } });
    expect(bob.body.error).toMatchObject({ code: -32602, message: 'Invalid requestState: requestState belongs to another principal' });
    const anonymous = await answer(engine, 'note-1', state, ACCEPT);
    expect(anonymous.body.error.code).toBe(-32602);
    const alice = await answer(engine, 'note-1', state, ACCEPT, { headers: { Authorization: 'Bearer alice-token' } });
    expect(alice.body.result.structuredContent.deleted).toBe(true);
  });

  it('refuses a state issued for another note', async () => {
    const { engine } = setup();
    const { state } = await ask(engine, 'note-1');
    const r = await answer(engine, 'note-3', state, ACCEPT);
    expect(r.body.error).toMatchObject({ code: -32602, message: 'Invalid requestState: requestState was issued for a different request' });
    expect(await noteIds(engine)).toEqual(['note-1', 'note-2', 'note-3', 'note-4', 'note-5']);
  });

  it('refuses a state of another engine secret', async () => {
    const { engine } = setup();
    const { state } = await ask(engine);
    const other = createMockEngine({ scenario: demo(), stores: createMemoryStores(), secret: 'another-secret' });
    const r = await answer(other, 'note-1', state, ACCEPT);
    expect(r.body.error.message).toBe('Invalid requestState: requestState failed its integrity check');
    other.close();
  });
});

describe('delete_note replay store bound (-31023)', () => {
  /** One confirmation declined by `caller` (each caller may hold a tenth of the store). */
  async function declineRound(engine: MockEngine, noteId = 'note-4', caller = 'caller-0') {
    const o = { headers: { Authorization: `Bearer ${caller}` } };
    const { state } = await ask(engine, noteId, o);
    return answer(engine, noteId, state, DECLINE, o);
  }

  it('holds 1,000 spent nonces by default; the 1,001st answers -31023 until entries expire', async () => {
    const { engine, stores, clock } = setup();
    expect(stores.replay.maxEntries).toBe(1000);
    for (let batch = 0; batch < 10; batch++) {
      const replies = await Promise.all(Array.from({ length: 100 }, () => declineRound(engine, 'note-4', `caller-${batch}`)));
      for (const r of replies) expect(r.body.result.structuredContent.reason).toBe('declined');
    }
    expect(await stores.replay.size(clock.now())).toBe(1000);
    const { state } = await ask(engine, 'note-1');
    const full = await answer(engine, 'note-1', state, ACCEPT);
    expect(full.status).toBe(200);
    expect(full.body.error).toMatchObject({
      code: -31023,
      message: expect.stringContaining('Replay store is full (max 1000 entries)'),
      data: { maxEntries: 1000 },
    });
    expect(full.body.error.message).toContain('retry after');
    expect(await noteIds(engine)).toContain('note-1');
    // A full store still keeps the state usable: the nonce was not spent.
    expect(await stores.replay.has('demo', JSON.parse(Buffer.from(state.split('.')[0], 'base64url').toString()).n, clock.now())).toBe(false);
    // After the spent nonces expire the store accepts again.
    clock.advance(300_000);
    const { state: fresh } = await ask(engine, 'note-1');
    expect((await answer(engine, 'note-1', fresh, ACCEPT)).body.result.structuredContent.deleted).toBe(true);
    expect(await stores.replay.size(clock.now())).toBe(1);
  });

  it("gives one caller a tenth of the store: filling its share never blocks another caller's confirmation", async () => {
    const { engine, stores, clock } = setup();
    const replies = await Promise.all(Array.from({ length: 100 }, () => declineRound(engine, 'note-4', 'mallory')));
    for (const r of replies) expect(r.body.result.structuredContent.reason).toBe('declined');
    const refused = await declineRound(engine, 'note-4', 'mallory');
    expect(refused.body.error).toMatchObject({
      code: -31023,
      message: expect.stringContaining('Too many confirmations spent by this caller: 100'),
      data: { maxEntries: 1000, perPrincipal: 100 },
    });
    expect(await stores.replay.size(clock.now())).toBe(100);
    const alice = { headers: { Authorization: 'Bearer alice' } };
    const { state } = await ask(engine, 'note-1', alice);
    expect((await answer(engine, 'note-1', state, ACCEPT, alice)).body.result.structuredContent.deleted).toBe(true);
    clock.advance(300_001);
    expect((await declineRound(engine, 'note-4', 'mallory')).body.result.structuredContent.reason).toBe('declined');
  });

  it("enforces the scenario's replayStoreMaxEntries even when the shared store allows more", async () => {
    const { engine, stores, clock } = setup({ scenario: demo({ replayStoreMaxEntries: 3 }), replayMaxEntries: 1000 });
    for (let i = 0; i < 3; i++) expect((await declineRound(engine, 'note-4', `caller-${i}`)).body.result.structuredContent.reason).toBe('declined');
    const refused = await declineRound(engine, 'note-4', 'caller-3');
    expect(refused.body.error).toMatchObject({ code: -31023, message: expect.stringContaining('max 3 entries') });
    expect(await stores.replay.size(clock.now())).toBe(3);
    clock.advance(300_001);
    expect((await declineRound(engine)).body.result.structuredContent.reason).toBe('declined');
  });

  it("answers -31023 when the store's own bound is reached", async () => {
    const { engine } = setup({ replayMaxEntries: 2 });
    await declineRound(engine, 'note-4', 'caller-1');
    await declineRound(engine, 'note-4', 'caller-2');
    const { state } = await ask(engine, 'note-1');
    expect((await answer(engine, 'note-1', state, ACCEPT)).body.error).toMatchObject({ code: -31023, message: expect.stringContaining('max 2 entries') });
    // cancel never touches the store, so it still answers while the store is full
    expect((await answer(engine, 'note-1', state, CANCEL)).body.result.structuredContent.reason).toBe('cancelled');
  });
});

describe('delete_note on the SQLite store', () => {
  function sqliteDir() {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-delete-note-'));
    dirs.push(dir);
    return dir;
  }

  it('refuses a replay after a restart (new engine and store over the same file)', async () => {
    const dir = sqliteDir();
    const clock = createFakeClock();
    const first = setup({ stores: openSqliteStores(dir), clock });
    const { state } = await ask(first.engine, 'note-5');
    expect((await answer(first.engine, 'note-5', state, DECLINE)).body.result.structuredContent.reason).toBe('declined');
    first.engine.close();
    first.stores.close();
    opened.splice(0);

    const second = setup({ stores: openSqliteStores(dir), clock });
    const r = await answer(second.engine, 'note-5', state, ACCEPT);
    expect(r.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('replay refused') });
    expect(await noteIds(second.engine)).toContain('note-5');
  });

  it('keeps a cancelled confirmation usable across a restart', async () => {
    const dir = sqliteDir();
    const clock = createFakeClock();
    const first = setup({ stores: openSqliteStores(dir), clock });
    const { state } = await ask(first.engine, 'note-5');
    await answer(first.engine, 'note-5', state, CANCEL);
    first.engine.close();
    first.stores.close();
    opened.splice(0);
    const second = setup({ stores: openSqliteStores(dir), clock });
    expect((await answer(second.engine, 'note-5', state, ACCEPT)).body.result.structuredContent).toEqual({ deleted: true, noteId: 'note-5' });
  });

  it('applies the small scenario bound on the shared file', async () => {
    const { engine } = setup({ scenario: demo({ replayStoreMaxEntries: 2 }), stores: openSqliteStores(sqliteDir()) });
    for (let i = 0; i < 2; i++) {
      const o = { headers: { Authorization: `Bearer caller-${i}` } };
      const { state } = await ask(engine, 'note-4', o);
      expect((await answer(engine, 'note-4', state, DECLINE, o)).body.result.structuredContent.reason).toBe('declined');
    }
    const { state } = await ask(engine, 'note-4');
    expect((await answer(engine, 'note-4', state, DECLINE)).body.error.code).toBe(-31023);
  });
});
