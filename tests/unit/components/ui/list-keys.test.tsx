// @vitest-environment happy-dom
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { keyedByContent } from '../../../../components/ui/content-keys';
import { useRowKeys } from '../../../../components/ui/use-row-keys';
import { cleanup, click, render } from '../../../helpers/render';

/**
 * Keys for lists without ids: a read-only list keys items by what they show (repeats numbered),
 * an editable list keeps one key per row from the row's arrival to its removal.
 */

afterEach(cleanup);

describe('keyedByContent', () => {
  it('keys items by content, numbers repeats, and keeps a key with its item when items before it go', () => {
    const keys = (items: string[]) => keyedByContent(items, (s) => s).map((k) => k.key);
    expect(keys(['a', 'b', 'a', 'a'])).toEqual(['a', 'b', 'a#1', 'a#2']);
    expect(keys(['x', 'b', 'c']).slice(1)).toEqual(keys(['b', 'c']));
    expect(keyedByContent([{ n: 1 }], (o) => String(o.n))[0]?.item).toEqual({ n: 1 });
  });
});

function Rows({ initial }: { initial: string[] }) {
  const [rows, setRows] = useState(initial);
  const rowKeys = useRowKeys(rows.length);
  return (
    <div>
      {rows.map((value, i) => (
        <div key={rowKeys.keys[i]} data-row={value}>
          <input defaultValue={value} />
          <button
            type="button"
            data-remove={value}
            onClick={() => {
              rowKeys.remove(i);
              setRows((prev) => prev.filter((_, j) => j !== i));
            }}
          >
            ×
          </button>
        </div>
      ))}
      <button type="button" data-add onClick={() => setRows((prev) => [...prev, `row${prev.length}`])}>
        +
      </button>
    </div>
  );
}

describe('useRowKeys', () => {
  it('keeps each row on its own element when a row before it is removed or one is added', async () => {
    const view = render(<Rows initial={['a', 'b', 'c']} />);
    const b = view.get('[data-row="b"] input');
    const c = view.get('[data-row="c"] input');
    await click(view.get('[data-remove="a"]'));
    expect(view.all('[data-row]').map((r) => r.getAttribute('data-row'))).toEqual(['b', 'c']);
    // With index keys the row of "a" would have been reused for "b" (and "b"'s for "c").
    expect(view.get('[data-row="b"] input')).toBe(b);
    expect(view.get('[data-row="c"] input')).toBe(c);
    await click(view.get('[data-add]'));
    expect(view.all('[data-row]')).toHaveLength(3);
    expect(view.get('[data-row="b"] input')).toBe(b);
  });
});
