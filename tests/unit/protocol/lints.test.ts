import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ExchangeSchema,
  LINT_RULES,
  LintContextSchema,
  LintSchema,
  lintAll,
  lintElicitation,
  lintExchange,
  secretHint,
  specUrl,
  type Exchange,
  type Lint,
  type LintContext,
  type LintId,
} from '../../../lib/protocol/lints';
import { fingerprint } from '../../../lib/shared/fingerprint';
import { createSchemaValidator } from '../../../lib/client/schema-validator';

/**
 * Golden wire fixtures (tests/fixtures/protocol/*.json): each case lists the exact set of lint
 * ids it must produce. valid.json holds spec examples that must stay silent; every other file
 * holds at least one bad case per rule. Sequence cases (`exchanges`) go through lintAll.
 */

interface SingleCase {
  name: string;
  context?: LintContext;
  exchange: Exchange;
  expect: string[];
}
interface SequenceCase {
  name: string;
  context?: LintContext;
  exchanges: Exchange[];
  expect: string[][];
}
type Case = SingleCase | SequenceCase;

const DIR = join(__dirname, '../../fixtures/protocol');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const fixtures = files.map((file) => ({ file, ...(JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { description: string; cases: Case[] }) }));
const ids = (lints: Lint[]) => [...new Set(lints.map((l) => l.id))].sort();

describe('lint fixtures', () => {
  for (const { file, cases } of fixtures) {
    describe(file, () => {
      for (const c of cases) {
        it(c.name, () => {
          const ctx = c.context ? LintContextSchema.parse(c.context) : undefined;
          if ('exchange' in c) {
            ExchangeSchema.parse(c.exchange);
            const lints = lintExchange(c.exchange, ctx);
            expect(ids(lints), JSON.stringify(lints, null, 1)).toEqual(c.expect);
            for (const l of lints) {
              LintSchema.parse(l);
              const rule = LINT_RULES[l.id as LintId];
              expect(l.severity).toBe(rule.severity);
              expect(l.specRef).toBe(rule.specRef);
            }
          } else {
            for (const e of c.exchanges) ExchangeSchema.parse(e);
            // The tool schema rules need a validator; the inspector brings ajv (lib/client).
            const lints = lintAll(c.exchanges, ctx, { validateSchema: createSchemaValidator() });
            expect(lints).toHaveLength(c.exchanges.length);
            expect(lints.map(ids), JSON.stringify(lints, null, 1)).toEqual(c.expect);
          }
        });
      }
    });
  }

  it('valid.json is silent and every rule has a bad fixture that fires it', () => {
    const valid = fixtures.find((f) => f.file === 'valid.json')!;
    expect(valid.cases.length).toBeGreaterThanOrEqual(20);
    for (const c of valid.cases) expect(c.expect.flat(), c.name).toEqual([]);
    const fired = new Set(fixtures.flatMap((f) => f.cases.flatMap((c) => c.expect.flat())));
    const missing = Object.keys(LINT_RULES).filter((id) => !fired.has(id));
    expect(missing).toEqual([]);
  });
});

describe('lint engine', () => {
  it('never throws on hostile input', () => {
    const junk: unknown[] = [
      null,
      1,
      'x',
      [],
      { result: 5 },
      { jsonrpc: '2.0', id: {}, method: 7 },
      { jsonrpc: '2.0', id: 1, result: { resultType: 'task', status: 9, task: 'x' } },
    ];
    for (const a of junk) {
      for (const b of junk) {
        const ex = {
          method: 'tools/call',
          request: { body: a, headers: { 'mcp-name': '=?base64?***?=' } },
          response: { status: 200, body: b },
          frames: [a, b],
          era: 'modern',
          transport: 'http',
        } as Exchange;
        expect(() => lintExchange(ex)).not.toThrow();
        expect(() => lintAll([ex, ex])).not.toThrow();
      }
    }
  });

  it('points at the offending field', () => {
    const ex: Exchange = {
      method: 'tools/list',
      era: 'modern',
      transport: 'stdio',
      request: {
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
            },
          },
        },
      },
      response: { body: { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools: [], ttlMs: -5, cacheScope: 'public' } } },
    };
    expect(lintExchange(ex)).toEqual([
      {
        id: 'cache-hints-invalid',
        severity: 'error',
        message: 'ttlMs must be an integer >= 0, got -5',
        specRef: 'server/utilities/caching#cacheable-results',
        path: 'response.body.result.ttlMs',
      },
    ]);
  });

  it('uses the capabilities of the context over those of the request', () => {
    const ex: Exchange = {
      method: 'tools/call',
      era: 'modern',
      transport: 'stdio',
      request: {
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'x',
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
            },
          },
        },
      },
      response: {
        body: {
          jsonrpc: '2.0',
          id: 1,
          result: {
            resultType: 'task',
            taskId: '0b9f6c1e-5d2a-4f7e-9c3b-8a1d2e3f4a5b',
            status: 'working',
            createdAt: '2026-07-28T10:00:00Z',
            lastUpdatedAt: '2026-07-28T10:00:00Z',
            ttlMs: null,
          },
        },
      },
    };
    expect(ids(lintExchange(ex))).toEqual(['task-not-declared']);
    expect(ids(lintExchange(ex, { extensions: { tasks: true } }))).toEqual([]);
  });

  it('labels -32023 as implementation-defined in the reserved range', () => {
    const lints = lintAll([
      {
        method: 'tools/call',
        era: 'modern',
        transport: 'stdio',
        response: { body: { jsonrpc: '2.0', id: 1, error: { code: -32023, message: 'Replay store is full' } } },
      },
    ]);
    expect(lints[0].map((l) => l.message).join()).toContain('implementation-defined, reserved range');
  });

  it('recognises secrets by name, title, description and format, not by lookalikes', () => {
    expect(secretHint('password', {})).toBe('"password" in the name');
    expect(secretHint('apiKey', {})).toBe('"api key" in the name');
    expect(secretHint('x', { title: 'Credit card number' })).toBe('"card number" in the title');
    expect(secretHint('x', { description: 'Your CVV' })).toBe('"cvv" in the description');
    expect(secretHint('x', { format: 'password' })).toBe('format "password"');
    for (const harmless of ['maxTokens', 'tokenizer', 'shipping', 'opinion', 'username', 'email', 'spinner'])
      expect(secretHint(harmless, {}), harmless).toBeUndefined();
  });

  it('lints an elicitation request on its own', () => {
    const lints = lintElicitation({ mode: 'form', message: 'Log in', requestedSchema: { type: 'object', properties: { password: { type: 'string' } } } });
    expect(ids(lints)).toEqual(['elicitation-secret']);
    expect(lints[0].path).toBe('params.requestedSchema.properties.password');
  });

  it('links spec references to the published documents', () => {
    expect(specUrl('basic/index#result-type')).toBe('https://modelcontextprotocol.io/specification/2026-07-28/basic/index#result-type');
    expect(specUrl('ext/tasks#polling')).toMatch(/^https:\/\/github\.com\/modelcontextprotocol\/ext-tasks\/.+#polling$/);
    for (const rule of Object.values(LINT_RULES)) expect(specUrl(rule.specRef)).toMatch(/^https:\/\//);
  });
});

describe('task ids in lint messages', () => {
  it('are named by their fingerprint, never by a prefix of the id (task ids are bearer tokens)', () => {
    const taskCase = fixtures.flatMap((f) => f.cases).find((c) => 'exchanges' in c && c.expect.flat().includes('task-cancel-by-notification')) as SequenceCase;
    const messages = lintAll(taskCase.exchanges, taskCase.context ? LintContextSchema.parse(taskCase.context) : undefined)
      .flat()
      .filter((l) => l.id === 'task-cancel-by-notification')
      .map((l) => l.message);
    const taskIds = JSON.stringify(taskCase.exchanges)
      .match(/"taskId":"([^"]+)"/g)!
      .map((m) => m.slice(10, -1));
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) {
      for (const id of taskIds) expect(m).not.toContain(id.slice(0, 8));
      const shown = m.match(/task ([0-9a-f]{8})…/)?.[1];
      expect(taskIds.map(fingerprint)).toContain(shown);
    }
  });
});
