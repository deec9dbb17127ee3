/**
 * React keys for a read-only list whose items carry no id: each key is what the item shows
 * (`keyOf`), with `#n` added when the same content repeats. A key stays with its item when
 * others are added before it or dropped (a sliding window, a list that grows), which a
 * position would not.
 */
export function keyedByContent<T>(items: readonly T[], keyOf: (item: T) => string): { key: string; item: T }[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const base = keyOf(item);
    const repeats = seen.get(base) ?? 0;
    seen.set(base, repeats + 1);
    return { key: repeats ? `${base}#${repeats}` : base, item };
  });
}
