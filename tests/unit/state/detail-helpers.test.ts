import { describe, expect, it } from 'vitest';
import { headerRows, isSecretHeader } from '../../../lib/state/header-mask';
import { lineDiff, snapshotText } from '../../../lib/state/line-diff';

/** The detail pane's helpers: the snapshot line diff and header masking. */

describe('lineDiff', () => {
  it('marks changed lines between two snapshots and keeps the rest', () => {
    const a = JSON.stringify({ taskId: 't', status: 'working', pollIntervalMs: 1000 }, null, 2);
    const b = JSON.stringify({ taskId: 't', status: 'completed', pollIntervalMs: 1000, result: 1 }, null, 2);
    const d = lineDiff(a, b)!;
    expect(d.filter((l) => l.op === 'del').map((l) => l.text.trim())).toEqual(['"status": "working",', '"pollIntervalMs": 1000']);
    expect(d.filter((l) => l.op === 'add').map((l) => l.text.trim())).toEqual(['"status": "completed",', '"pollIntervalMs": 1000,', '"result": 1']);
    expect(d.filter((l) => l.op === 'same').map((l) => l.text.trim())).toEqual(['{', '"taskId": "t",', '}']);
    // Applying the diff gives b back; removing the additions gives a.
    expect(
      d
        .filter((l) => l.op !== 'del')
        .map((l) => l.text)
        .join('\n'),
    ).toBe(b);
    expect(
      d
        .filter((l) => l.op !== 'add')
        .map((l) => l.text)
        .join('\n'),
    ).toBe(a);
  });

  it('gives up on huge inputs instead of taking quadratic time', () => {
    const big = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
    expect(lineDiff(big, `${big.replace('line 5', 'x')}\nmore`.split('\n').reverse().join('\n'))).toBeUndefined();
    expect(lineDiff(big, big)?.every((l) => l.op === 'same')).toBe(true);
  });

  it('pretty-prints the snapshot inside a response or notification', () => {
    expect(snapshotText(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { taskId: 't', status: 'working' } }))).toBe(
      JSON.stringify({ taskId: 't', status: 'working' }, null, 2),
    );
    expect(snapshotText(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tasks', params: { taskId: 't', status: 'failed' } }))).toContain('"failed"');
    expect(snapshotText('not json')).toBe('not json');
  });
});

describe('header masking', () => {
  const headers = { 'Mcp-Name': 'tsk_secret_id', Authorization: 'Bearer abc.def', Cookie: 'loupe_token=x', 'Mcp-Method': 'tasks/get' };

  it('masks Mcp-Name on tasks/* and credentials everywhere, keeping the scheme word', () => {
    const rows = headerRows(headers, 'tasks/get', false);
    const by = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(by['Mcp-Name'].masked).toBe(true);
    expect(by['Mcp-Name'].value).not.toContain('tsk_secret_id');
    expect(by.Authorization.value).toMatch(/^Bearer •+$/);
    expect(by.Cookie.value).not.toContain('loupe_token');
    expect(by['Mcp-Method']).toEqual({ name: 'Mcp-Method', value: 'tasks/get', masked: false });
  });

  it('shows a tool name in Mcp-Name as is, and everything once revealed', () => {
    expect(isSecretHeader('mcp-name', 'tools/call')).toBe(false);
    expect(headerRows({ 'mcp-name': 'generate_report' }, 'tools/call', false)[0].value).toBe('generate_report');
    expect(headerRows(headers, 'tasks/get', true).every((r) => !r.masked && headers[r.name as keyof typeof headers] === r.value)).toBe(true);
  });
});
