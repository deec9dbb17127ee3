import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../lib/engine';
import { getBuiltinScenario } from '../../lib/scenario/builtins';
import { createMemoryStores } from '../../lib/store/memory';
import { CAPS, callTool, rpc } from '../helpers/rpc';

/**
 * The principal behind a bearer JWT: its `sub` counts only when the JWT is HS256-signed with the
 * configured key. A forged token (`alg: none`, unsigned, signed with another key) naming
 * alice's subject reaches none of alice's tasks: it answers exactly like an unknown id.
 */

const KEY = 'the-configured-hs256-key';
const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** A JWT signed with `key`, or with an empty signature when `key` is null. */
function jwt(payload: Record<string, unknown>, alg = 'HS256', key: string | null = KEY): string {
  const head = `${b64({ alg, typ: 'JWT' })}.${b64(payload)}`;
  return `${head}.${key === null ? '' : createHmac('sha256', key).update(head).digest('base64url')}`;
}

function setup(principalKey?: string) {
  const engine = createMockEngine({ scenario: getBuiltinScenario('demo')!, stores: createMemoryStores(), secret: 's', principalKey });
  engines.push(engine);
  return engine;
}
const as = (token: string) => ({ caps: CAPS.formAndTasks, headers: { Authorization: `Bearer ${token}` } });
async function startTask(engine: MockEngine, token: string): Promise<string> {
  const created = await callTool(engine, 'generate_report', { size: 'small' }, as(token));
  return created.body.result.taskId as string;
}
const get = (engine: MockEngine, taskId: string, token: string) => rpc(engine, 'tasks/get', { taskId }, { ...as(token), id: 3 });

describe('with a configured key', () => {
  it("honours a verified sub and refuses forged ones naming alice's subject", async () => {
    const engine = setup(KEY);
    const taskId = await startTask(engine, jwt({ sub: 'alice', iat: 1 }));
    // Another token for alice, validly signed: the same principal.
    expect((await get(engine, taskId, jwt({ sub: 'alice', iat: 2 }))).body.result.taskId).toBe(taskId);
    const unknown = await get(engine, `${taskId.slice(0, -4)}zzzz`, jwt({ sub: 'mallory' }));
    const forgeries = {
      'alg none': jwt({ sub: 'alice' }, 'none', null),
      'alg none with a signature': jwt({ sub: 'alice' }, 'none'),
      unsigned: jwt({ sub: 'alice' }, 'HS256', null),
      'another key': jwt({ sub: 'alice' }, 'HS256', 'not-the-key'),
      'HS512 claimed': jwt({ sub: 'alice' }, 'HS512'),
    };
    for (const [name, token] of Object.entries(forgeries)) {
      const forged = await get(engine, taskId, token);
      expect(forged.body, name).toEqual(unknown.body);
      expect(forged.body.error?.code, name).toBe(-32602);
    }
  });
});

describe('without a key', () => {
  it('never trusts an unverified sub: each token is its own principal', async () => {
    const engine = setup();
    const alice = jwt({ sub: 'alice', iat: 1 }, 'none', null);
    const taskId = await startTask(engine, alice);
    expect((await get(engine, taskId, alice)).body.result.taskId).toBe(taskId);
    const forged = await get(engine, taskId, jwt({ sub: 'alice', iat: 2 }, 'none', null));
    expect(forged.body.error?.code).toBe(-32602);
    expect((await get(engine, taskId, jwt({ sub: 'alice', iat: 1 }))).body.error?.code).toBe(-32602);
  });
});
