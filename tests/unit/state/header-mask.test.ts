import { describe, expect, it } from 'vitest';
import { headerRows } from '../../../lib/state/header-mask';
import { curlCommand } from '../../../lib/state/request-curl';

/**
 * The detail pane's header tables and Copy as cURL, with "Show secrets" off, mask every header
 * that recordings redact by name (API keys and anything named like a token, secret, password or
 * credential, not only Authorization and cookies); ordinary headers stay readable.
 */

const headers = {
  'content-type': 'application/json',
  'mcp-method': 'tools/call',
  'mcp-session-id': 'session-visible-1234',
  'access-control-allow-credentials': 'true',
  authorization: 'Bearer MySuperSecretBearer123',
  'x-api-key': 'xk_9876543210abcdef',
  'X-Auth-Token': 'XAuthTok_1234abcd',
  'x-client-secret': 'ClientSecret_5678',
  'x-db-password': 'DbPass_9012',
  cookie: 'sid=CookieVal_3456',
};
const SECRET_VALUES = ['MySuperSecretBearer123', 'xk_9876543210abcdef', 'XAuthTok_1234abcd', 'ClientSecret_5678', 'DbPass_9012', 'CookieVal_3456'];

describe('masked headers', () => {
  it('masks API keys and token-, secret- and password-named headers like Authorization, and nothing else', () => {
    const rows = Object.fromEntries(headerRows(headers, 'tools/call', false).map((r) => [r.name, r]));
    for (const name of ['authorization', 'x-api-key', 'X-Auth-Token', 'x-client-secret', 'x-db-password', 'cookie']) {
      expect(rows[name]!.masked, name).toBe(true);
      expect(rows[name]!.value, name).toMatch(/•{4,}$/);
    }
    expect(rows.authorization!.value).toMatch(/^Bearer •+$/);
    for (const name of ['content-type', 'mcp-method', 'mcp-session-id', 'access-control-allow-credentials'])
      expect(rows[name], name).toMatchObject({ masked: false, value: headers[name as keyof typeof headers] });
  });

  it('shows them once revealed', () => {
    const rows = Object.fromEntries(headerRows(headers, 'tools/call', true).map((r) => [r.name, r.value]));
    expect(rows['x-api-key']).toBe('xk_9876543210abcdef');
  });

  it('keeps them out of Copy as cURL until revealed', () => {
    const masked = curlCommand({ url: 'http://127.0.0.1:4102/mcp', headers, body: '{}', method: 'tools/call', reveal: false });
    for (const v of SECRET_VALUES) expect(masked, v).not.toContain(v);
    expect(masked).toMatch(/-H 'x-api-key: •+'/);
    const shown = curlCommand({ url: 'http://127.0.0.1:4102/mcp', headers, body: '{}', method: 'tools/call', reveal: true });
    for (const v of SECRET_VALUES) expect(shown, v).toContain(v);
  });
});
