import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../helpers/rpc';
import { startCliMock, type Started } from '../helpers/processes';
import { controlApi, httpTarget } from './http-target';

/** 1,000 concurrent `charge` calls over 100 idempotency keys against the CLI mock's SQLite ledger. */
describe('charge: one execution per idempotency key over real HTTP', () => {
  let dataDir: string;
  let mock: Started;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-charge-'));
    mock = await startCliMock(['demo', '--data-dir', dataDir]);
  });
  afterAll(async () => {
    await mock?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('executes exactly 100 times and returns one receipt per key', async () => {
    const target = httpTarget(mock.url);
    const replies = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        callTool(target, 'charge', { account: 'acct-7', amountCents: 1200, idempotencyKey: `checkout-${i % 100}` }, target.opts({ id: `charge-${i}` })),
      ),
    );
    const byKey = new Map<string, Set<string>>();
    for (const r of replies) {
      expect(r.body.error).toBeUndefined();
      const receipt = r.body.result.structuredContent.receipt as { receiptId: string; idempotencyKey: string };
      byKey.set(receipt.idempotencyKey, (byKey.get(receipt.idempotencyKey) ?? new Set()).add(receipt.receiptId));
    }
    expect(byKey.size).toBe(100);
    for (const ids of byKey.values()) expect(ids.size).toBe(1);
    const info = await controlApi(mock.url, mock.token!, '/api/scenarios/demo', 'GET');
    expect(info.json.ledgerExecutions).toBe(100);
  });
});
