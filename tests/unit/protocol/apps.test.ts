import { describe, expect, it } from 'vitest';
import { allowAttribute, checkAppToolCall, toolUiOf } from '../../../lib/protocol/apps';

/** Tool bindings, visibility and the host rule for tools/call from a view. */

const tool = (name: string, ui?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: 'object' as const },
  _meta: { ...(ui ? { ui } : {}), ...extra },
});

describe('toolUiOf', () => {
  it('reads _meta.ui first, then the legacy flat key, and defaults visibility to model+app', () => {
    expect(toolUiOf(tool('a', { resourceUri: 'ui://x/a.html' }))).toEqual({ resourceUri: 'ui://x/a.html', visibility: ['model', 'app'] });
    expect(toolUiOf(tool('b', undefined, { 'ui/resourceUri': 'ui://x/b.html' }))).toEqual({ resourceUri: 'ui://x/b.html', visibility: ['model', 'app'] });
    expect(toolUiOf(tool('c', { resourceUri: 'ui://x/c.html' }, { 'ui/resourceUri': 'ui://x/legacy.html' })).resourceUri).toBe('ui://x/c.html');
    expect(toolUiOf(tool('d', { resourceUri: 'ui://x/d.html', visibility: ['app'] })).visibility).toEqual(['app']);
    expect(toolUiOf({})).toEqual({ visibility: ['model', 'app'] });
  });

  it('flags a resourceUri that is not ui:// instead of rendering it', () => {
    expect(toolUiOf(tool('e', { resourceUri: 'https://evil.example/app.html' }))).toEqual({
      invalidUri: 'https://evil.example/app.html',
      visibility: ['model', 'app'],
    });
  });
});

describe('checkAppToolCall', () => {
  const tools = [
    tool('both', { resourceUri: 'ui://x/v.html', visibility: ['model', 'app'] }),
    tool('app_only', { resourceUri: 'ui://x/v.html', visibility: ['app'] }),
    tool('model_only', { resourceUri: 'ui://x/v.html', visibility: ['model'] }),
    tool('plain'),
  ];

  it('lets a view call tools whose visibility includes app (the default included)', () => {
    expect(checkAppToolCall(tools, 'both')).toBeUndefined();
    expect(checkAppToolCall(tools, 'app_only')).toBeUndefined();
    expect(checkAppToolCall(tools, 'plain')).toBeUndefined();
  });

  it('refuses a model-only tool, naming the visibility', () => {
    expect(checkAppToolCall(tools, 'model_only')).toEqual({
      code: 'not-app-visible',
      message: 'Refused: tool "model_only" has visibility ["model"], which does not include "app"',
    });
  });

  it("refuses a tool that is not this server's (another server's app-only tool included) and a nameless call", () => {
    expect(checkAppToolCall(tools, 'other_server_tool')?.code).toBe('unknown-tool');
    expect(checkAppToolCall([], 'app_only')?.code).toBe('unknown-tool');
    expect(checkAppToolCall(tools, undefined)?.code).toBe('unknown-tool');
  });
});

describe('allowAttribute', () => {
  it('maps granted permissions to permission-policy features, ignoring unknown ones', () => {
    expect(allowAttribute({ camera: {}, clipboardWrite: {} })).toBe('camera; clipboard-write');
    expect(allowAttribute({ usb: {}, microphone: true })).toBe('');
    expect(allowAttribute(undefined)).toBe('');
  });
});
