/**
 * A small line diff (longest common subsequence) for the detail pane's "what changed since the
 * task's previous snapshot". Snapshots are short; past `maxLines` on either side the diff
 * gives up rather than spend quadratic time (the caller says so).
 */

export interface DiffLine {
  op: 'same' | 'add' | 'del';
  text: string;
}

/** Lines of `b` compared to `a`, or undefined when either side is longer than `maxLines`. */
export function lineDiff(a: string, b: string, maxLines = 1500): DiffLine[] | undefined {
  const x = a.split('\n');
  const y = b.split('\n');
  // Common head and tail cost nothing and usually cover most of a snapshot.
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const xs = x.slice(head, x.length - tail);
  const ys = y.slice(head, y.length - tail);
  if (xs.length > maxLines || ys.length > maxLines) return undefined;
  const n = xs.length;
  const m = ys.length;
  // lcs[i][j] = length of the LCS of xs[i..] and ys[j..], in one flat array.
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  // Every cell read below has 0 ≤ i ≤ n and 0 ≤ j ≤ m: inside the table.
  const cell = (i: number, j: number) => lcs[i * width + j]!;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = xs[i] === ys[j] ? cell(i + 1, j + 1) + 1 : Math.max(cell(i + 1, j), cell(i, j + 1));
    }
  }
  const out: DiffLine[] = x.slice(0, head).map((text) => ({ op: 'same' as const, text }));
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const left = xs[i]!; // i < n
    const right = ys[j]!; // j < m
    if (left === right) {
      out.push({ op: 'same', text: left });
      i++;
      j++;
    } else if (cell(i + 1, j) >= cell(i, j + 1)) {
      out.push({ op: 'del', text: left });
      i++;
    } else {
      out.push({ op: 'add', text: right });
      j++;
    }
  }
  for (const text of xs.slice(i)) out.push({ op: 'del', text });
  for (const text of ys.slice(j)) out.push({ op: 'add', text });
  for (const text of x.slice(x.length - tail)) out.push({ op: 'same', text });
  return out;
}

/** Pretty JSON of a task snapshot inside a message (result, or notification params), or the text as is. */
export function snapshotText(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    const m = JSON.parse(raw) as Record<string, unknown>;
    const inner = (m.result ?? m.params ?? m) as Record<string, unknown>;
    const legacy = inner && typeof inner === 'object' && 'task' in inner ? (inner.task as unknown) : inner;
    return JSON.stringify(legacy, null, 2);
  } catch {
    return raw;
  }
}
