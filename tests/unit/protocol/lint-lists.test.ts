import { describe, expect, it } from 'vitest';
import { lintExchange, type Exchange } from '../../../lib/protocol/lints';

/**
 * The per-item rules on a big list page (names, U+FFFD, header bindings) walk thousands of
 * entries without building a path for each (lib/protocol/lints/names.ts, encoding.ts); what
 * they report (the first finding, where and how many) is unchanged.
 */

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

function toolsPage(tools: unknown[]): Exchange {
  return {
    method: 'tools/list',
    era: 'modern',
    transport: 'http',
    request: {
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } },
    },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools } } },
  };
}

const tool = (i: number, extra: Record<string, unknown> = {}) => ({
  name: `tool_${i}`,
  description: `tool number ${i}`,
  inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
  ...extra,
});

describe('lints on a page of 1,000 tools', () => {
  it('finds nothing of these rules on a clean page', () => {
    const ids = lintExchange(toolsPage(Array.from({ length: 1000 }, (_, i) => tool(i)))).map((l) => l.id);
    expect(ids.filter((id) => ['text-bidi-control', 'text-not-utf8', 'tool-header-annotation-invalid'].includes(id))).toEqual([]);
  });

  it('names the first tool whose title holds a bidi control, at its path, once', () => {
    const tools = Array.from({ length: 1000 }, (_, i) => tool(i, i === 700 || i === 900 ? { title: `report_\u202Efdp.exe ${i}` } : {}));
    const found = lintExchange(toolsPage(tools)).filter((l) => l.id === 'text-bidi-control');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      path: 'response.body.result.tools[700].title',
      message: expect.stringMatching(/^tool title "report_⟨U\+202E⟩fdp\.exe 700" holds U\+202E/),
    });
  });

  it('counts every U+FFFD on the page and points at the first', () => {
    const tools = Array.from({ length: 1000 }, (_, i) =>
      tool(
        i,
        i === 3
          ? { description: 'a \uFFFD b' }
          : i === 999
            ? { inputSchema: { type: 'object', properties: { v: { type: 'string', description: '\uFFFD\uFFFD' } } } }
            : {},
      ),
    );
    const found = lintExchange(toolsPage(tools)).filter((l) => l.id === 'text-not-utf8');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      path: 'response.body.result.tools[3].description',
      message: expect.stringMatching(/^3 U\+FFFD replacement characters, first at response\.body\.result\.tools\[3\]\.description/),
    });
  });

  it('still reports a tool whose x-mcp-header binding is invalid', () => {
    const tools = Array.from({ length: 1000 }, (_, i) =>
      tool(i, i === 500 ? { inputSchema: { type: 'object', properties: { v: { type: 'object', 'x-mcp-header': 'Region' } } } } : {}),
    );
    const found = lintExchange(toolsPage(tools)).filter((l) => l.id === 'tool-header-annotation-invalid');
    expect(found).toMatchObject([{ path: 'response.body.result.tools[500].inputSchema', message: expect.stringContaining('non-primitive') }]);
  });
});
