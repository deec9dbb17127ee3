// @vitest-environment happy-dom
import { act, useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BridgeLog } from '../../../../components/apps/BridgeLog';
import { useBridgeLog } from '../../../../components/apps/use-bridge-log';
import type { BridgeFrame } from '../../../../lib/client/app-bridge-transport';
import { cleanup, click, render } from '../../../helpers/render';

/** The bridge log of a view: a burst lands in a few renders, the last rows show, and all of them on demand. */

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const frame = (i: number): BridgeFrame => ({
  kind: 'bridge',
  direction: 'in',
  exchangeId: 'app:v1',
  conversationId: 'app:v1',
  method: 'ui/notifications/size-changed',
  body: { jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: i } },
});

/** A log fed `count` frames at once, counting its renders. */
function Harness({ count, renders }: { count: number; renders: number[] }) {
  const log = useBridgeLog();
  renders.push(log.frames.length);
  const { add } = log;
  useEffect(() => {
    for (let i = 0; i < count; i++) add(frame(i));
  }, [add, count]);
  return <BridgeLog frames={log.frames} />;
}

describe('bridge log', () => {
  it('renders a burst of 200 messages at once, its last 60 rows, and every row once asked', async () => {
    vi.useFakeTimers();
    const renders: number[] = [];
    const view = render(<Harness count={200} renders={renders} />);
    // The first 20 show at once; the rest of the burst is gathered.
    expect(view.all('li[data-direction]')).toHaveLength(20);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(150);
    });
    // Two renders brought all 200 in, not one per message.
    expect(renders.filter((n) => n > 0)).toEqual([20, 200]);
    expect(view.text('[data-testid="bridge-log-count"]')).toBe('(200)');
    const rows = view.all('li[data-direction]');
    expect(rows).toHaveLength(60);
    expect(rows.at(-1)?.textContent).toContain('size-changed');
    await click(view.get('[data-testid="bridge-log-show-all"]'));
    expect(view.all('li[data-direction]')).toHaveLength(200);
    expect(view.query('[data-testid="bridge-log-show-all"]')).toBeNull();
  });

  it('shows an ordinary conversation at once, whole, with no button', async () => {
    vi.useFakeTimers();
    const view = render(<Harness count={5} renders={[]} />);
    expect(view.all('li[data-direction]')).toHaveLength(5);
    expect(view.query('[data-testid="bridge-log-show-all"]')).toBeNull();
  });
});
