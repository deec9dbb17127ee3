import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter } from 'yaml';

/**
 * Maps a data path (as zod reports it) back to where it is written in the YAML/JSON source.
 * Works on the parsed document's node tree, so it sees exactly what the author typed.
 */

/** A 1-based source position. */
type SourcePosition = { line: number; column: number };

/**
 * - `value`: the node at the path; an empty value (`key:` with nothing after it) points at its key.
 * - `key`: the key of the last segment (for unknown keys).
 * When the path does not exist (a missing key), both point at the deepest node that does:
 * the mapping the key is missing from.
 */
export type LocateTarget = 'value' | 'key';

/** Finds source positions for data paths in one parsed document. */
export interface Locator {
  /** Where `path` is written, or the nearest existing ancestor when it is not. */
  locate(path: readonly PropertyKey[], target?: LocateTarget): SourcePosition;
  /** Where a byte offset of the source is. */
  position(offset: number): SourcePosition;
}

type Walk = { node: unknown; keyNode: unknown; complete: boolean; fallback: number };

/** Creates a {@link Locator} for `doc`, which must have been parsed with `lineCounter`. */
export function createLocator(doc: Document, lineCounter: LineCounter): Locator {
  const position = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(Math.max(0, offset));
    return { line, column: col };
  };

  const walk = (path: readonly PropertyKey[]): Walk => {
    let node: unknown = doc.contents;
    let keyNode: unknown = null;
    // The deepest offset known so far, so a path that leaves the tree still lands nearby.
    let fallback = startOf(node) ?? 0;
    for (const segment of path) {
      // Aliases are followed so a path into `*anchor` lands on the anchored node.
      if (isAlias(node)) node = node.resolve(doc);
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
        if (!pair) return { node, keyNode, complete: false, fallback };
        keyNode = pair.key;
        node = pair.value;
        fallback = startOf(keyNode) ?? fallback;
      } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
        keyNode = null;
        node = node.items[segment];
      } else {
        return { node, keyNode, complete: false, fallback };
      }
      fallback = startOf(node) ?? fallback;
    }
    return { node, keyNode, complete: true, fallback };
  };

  const locate = (path: readonly PropertyKey[], target: LocateTarget = 'value'): SourcePosition => {
    const found = walk(path);
    if (!found.complete) return position(startOf(found.node) ?? found.fallback);
    const keyStart = startOf(found.keyNode);
    if (keyStart !== undefined && (target === 'key' || isEmpty(found.node))) return position(keyStart);
    return position(startOf(found.node) ?? found.fallback);
  };

  return { locate, position };
}

function startOf(node: unknown): number | undefined {
  const range = (node as { range?: unknown } | null | undefined)?.range;
  return Array.isArray(range) && typeof range[0] === 'number' ? range[0] : undefined;
}

/** `key:` with no value parses to an empty null scalar placed after the colon; the key reads better. */
function isEmpty(node: unknown): boolean {
  return node == null || (isScalar(node) && node.value === null && !node.source);
}
