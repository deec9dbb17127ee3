import { describe, expect, it } from 'vitest';
import { createMemoryStores } from '../../../lib/store';
import { describeStoreContract, makeTask } from './store-contract';

describeStoreContract('memory', (options) => createMemoryStores(options));

describe('createMemoryStores', () => {
  it('keeps separate instances independent', async () => {
    const one = createMemoryStores();
    const two = createMemoryStores();
    await one.tasks.create(makeTask());
    await one.ledger.runOnce('s', 'k', () => 1, 1);
    expect(await two.tasks.count()).toBe(0);
    expect(await two.ledger.executions()).toBe(0);
  });

  it('exposes only the interface methods', async () => {
    const stores = createMemoryStores();
    expect(Object.keys(stores.tasks).sort()).toEqual(['clear', 'count', 'create', 'delete', 'get', 'list', 'purgeExpired', 'update']);
    expect(Object.keys(stores.ledger).sort()).toEqual(['clear', 'executions', 'runOnce']);
    expect(Object.keys(stores.replay).sort()).toEqual(['clear', 'consume', 'has', 'maxEntries', 'size']);
  });
});
