import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { createMemoryStores } from '../../../lib/store/memory';
import { openSqliteStores } from '../../../lib/store/sqlite/sqlite-stores';
import type { Stores } from '../../../lib/store/types';
import { callTool, type RpcOptions } from '../../helpers/rpc';

/** charge: one execution per (principal, idempotency key), the same receipt for every retry. */

const opened: { engine: MockEngine; stores: Stores }[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const { engine, stores } of opened.splice(0)) {
    engine.close();
    stores.close();
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(stores: Stores = createMemoryStores()) {
  const engine = createMockEngine({ scenario: getBuiltinScenario('demo')!, stores });
  opened.push({ engine, stores });
  return { engine, stores };
}

function sqlite(dir?: string) {
  const d = dir ?? mkdtempSync(join(tmpdir(), 'loupe-charge-'));
  if (!dir) dirs.push(d);
  return { dir: d, stores: openSqliteStores(d) };
}

const charge = (engine: MockEngine, args: Record<string, unknown>, o: RpcOptions = {}) => callTool(engine, 'charge', args, o);

async function concurrentBurst(engine: MockEngine, stores: Stores) {
  const calls = Array.from({ length: 1000 }, (_, i) => ({ id: `call-${i}`, key: `key-${i % 100}` }));
  const replies = await Promise.all(calls.map((c) => charge(engine, { account: 'acct-7', amountCents: 1200, idempotencyKey: c.key }, { id: c.id })));
  expect(await stores.ledger.executions('demo')).toBe(100);
  const byKey = new Map<string, unknown[]>();
  replies.forEach((r, i) => {
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(calls[i].id);
    const list = byKey.get(calls[i].key) ?? [];
    list.push(r.body.result.structuredContent);
    byKey.set(calls[i].key, list);
  });
  expect(byKey.size).toBe(100);
  const receiptIds = new Set<string>();
  for (const [key, results] of byKey) {
    const first = (results[0] as { receipt: { receiptId: string } }).receipt;
    receiptIds.add(first.receiptId);
    for (const s of results) expect((s as { receipt: unknown }).receipt).toEqual(first);
    expect(results.filter((s) => (s as { replayed: boolean }).replayed === false)).toHaveLength(1);
    expect(first).toMatchObject({ account: 'acct-7', amountCents: 1200, idempotencyKey: key });
  }
  expect(receiptIds.size).toBe(100);
}

describe('charge', () => {
  it("runs the seed's example once: two JSON-RPC ids, one key, one execution, the same receipt", async () => {
    const { engine, stores } = setup();
    const args = { account: 'acct-7', amountCents: 1200, idempotencyKey: 'checkout-7' };
    const a = await charge(engine, args, { id: 41 });
    const b = await charge(engine, args, { id: 42 });
    expect(await stores.ledger.executions('demo')).toBe(1);
    expect(a.body.result.structuredContent.replayed).toBe(false);
    expect(b.body.result.structuredContent.replayed).toBe(true);
    expect(b.body.result.structuredContent.receipt).toEqual(a.body.result.structuredContent.receipt);
    expect(a.body.result.structuredContent.receipt).toEqual({
      receiptId: expect.stringMatching(/^rcpt_/),
      account: 'acct-7',
      amountCents: 1200,
      idempotencyKey: 'checkout-7',
      chargedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(b.body.result.content[0].text).toContain('nothing was charged again');
    expect(a.body.result.resultType).toBe('complete');
  });

  it('executes exactly 100 times for 1,000 concurrent calls over 100 keys (memory store)', async () => {
    const { engine, stores } = setup();
    await concurrentBurst(engine, stores);
  });

  it('executes exactly 100 times for 1,000 concurrent calls over 100 keys (SQLite store)', async () => {
    const { engine, stores } = setup(sqlite().stores);
    await concurrentBurst(engine, stores);
  });

  it('refuses a key reused for a different amount or account with -32602', async () => {
    const { engine, stores } = setup();
    await charge(engine, { account: 'acct-7', amountCents: 1200, idempotencyKey: 'k1' });
    for (const args of [
      { account: 'acct-7', amountCents: 1300, idempotencyKey: 'k1' },
      { account: 'acct-8', amountCents: 1200, idempotencyKey: 'k1' },
    ]) {
      const r = await charge(engine, args);
      expect(r.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('was already used for a different charge') });
    }
    expect(await stores.ledger.executions('demo')).toBe(1);
  });

  it('executes every call without a key and warns that a retry charges again', async () => {
    const { engine, stores } = setup();
    const replies = await Promise.all([1, 2, 3].map(() => charge(engine, { account: 'acct-7', amountCents: 500 })));
    expect(await stores.ledger.executions('demo')).toBe(3);
    expect(new Set(replies.map((r) => r.body.result.structuredContent.receipt.receiptId)).size).toBe(3);
    for (const r of replies) {
      expect(r.body.result.structuredContent.replayed).toBe(false);
      expect(r.body.result.structuredContent.receipt.idempotencyKey).toBeNull();
      expect(r.body.result.content[0].text).toMatch(/not safe to retry: a retry would charge again/);
    }
  });

  it('binds keys to the principal: the same key from two callers charges twice', async () => {
    const { engine, stores } = setup();
    const args = { account: 'acct-7', amountCents: 100, idempotencyKey: 'shared' };
    const alice = await charge(engine, args, { headers: { Authorization: 'Bearer alice' } });
    const bob = await charge(engine, args, { headers: { Authorization: 'Bearer bob' } });
    const aliceAgain = await charge(engine, args, { headers: { Authorization: 'Bearer alice' } });
    expect(await stores.ledger.executions('demo')).toBe(2);
    expect(bob.body.result.structuredContent.receipt.receiptId).not.toBe(alice.body.result.structuredContent.receipt.receiptId);
    expect(aliceAgain.body.result.structuredContent.receipt).toEqual(alice.body.result.structuredContent.receipt);
  });

  it('returns the same receipt after a restart on the SQLite store', async () => {
    const { dir, stores } = sqlite();
    const first = setup(stores);
    const args = { account: 'acct-9', amountCents: 999, idempotencyKey: 'durable' };
    const a = await charge(first.engine, args);
    first.engine.close();
    first.stores.close();
    opened.splice(0);
    const second = setup(sqlite(dir).stores);
    const b = await charge(second.engine, args, { id: 'after-restart' });
    expect(b.body.result.structuredContent).toEqual({ receipt: a.body.result.structuredContent.receipt, replayed: true });
    expect(await second.stores.ledger.executions('demo')).toBe(1);
  });

  it.each([
    ['amountCents 0', { account: 'acct-7', amountCents: 0 }],
    ['negative amountCents', { account: 'acct-7', amountCents: -5 }],
    ['fractional amountCents', { account: 'acct-7', amountCents: 1.5 }],
    ['string amountCents', { account: 'acct-7', amountCents: '12' }],
    ['missing account', { amountCents: 100 }],
    ['empty account', { account: ' ', amountCents: 100 }],
    ['empty idempotencyKey', { account: 'acct-7', amountCents: 100, idempotencyKey: '' }],
    ['numeric idempotencyKey', { account: 'acct-7', amountCents: 100, idempotencyKey: 7 }],
  ])('refuses %s with -32602 and charges nothing', async (_label, args) => {
    const { engine, stores } = setup();
    const r = await charge(engine, args);
    expect(r.body.error.code).toBe(-32602);
    expect(await stores.ledger.executions()).toBe(0);
  });

  it('reset drops the ledger', async () => {
    const { engine, stores } = setup();
    await charge(engine, { account: 'acct-7', amountCents: 1, idempotencyKey: 'x' });
    await engine.reset();
    expect(await stores.ledger.executions('demo')).toBe(0);
    expect((await charge(engine, { account: 'acct-7', amountCents: 1, idempotencyKey: 'x' })).body.result.structuredContent.replayed).toBe(false);
  });
});
