import { describe, expect, it } from 'vitest';
import { curlCommand, parseEditedRequest } from '../../../lib/state/request-curl';

const headers = {
  'content-type': 'application/json',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
  authorization: 'Bearer s3cret-token',
};
const body = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: "it's" } } });

describe('copy as cURL', () => {
  it('carries the URL, POST, every MCP header and the body, quoted for a shell; the token masked', () => {
    const c = curlCommand({ url: 'http://127.0.0.1:5000/mcp', headers, body, method: 'tools/call', reveal: false });
    expect(c.split(' \\\n  ')[0]).toBe("curl -X POST 'http://127.0.0.1:5000/mcp'");
    expect(c).toContain("-H 'mcp-protocol-version: 2026-07-28'");
    expect(c).toContain("-H 'mcp-method: tools/call'");
    expect(c).toContain("-H 'mcp-name: echo'");
    expect(c).toContain('--data-raw \'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"it\'\\\'\'s"}}}\'');
    expect(c).not.toContain('s3cret');
    expect(c).toMatch(/-H 'authorization: Bearer •+'/);
  });

  it('shows the token once revealed', () => {
    expect(curlCommand({ url: 'http://h/mcp', headers, body, method: 'tools/call', reveal: true })).toContain("-H 'authorization: Bearer s3cret-token'");
  });
});

describe('edit and resend', () => {
  it('takes a JSON-RPC request and says what is wrong with anything else', () => {
    expect(parseEditedRequest('{"jsonrpc":"2.0","id":9,"method":"tools/list"}')).toEqual({ ok: true, method: 'tools/list' });
    expect(parseEditedRequest('{"method":"tools/call","params":{"name":"x"}}')).toEqual({ ok: true, method: 'tools/call', params: { name: 'x' } });
    expect(parseEditedRequest('{"method": 3}')).toMatchObject({ ok: false, error: expect.stringContaining('method') });
    expect(parseEditedRequest('{')).toMatchObject({ ok: false, error: expect.stringContaining('Not JSON') });
  });
});
