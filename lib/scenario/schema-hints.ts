/**
 * What the scenario JSON Schema (json-schema.ts) says at a place in a YAML document, for the
 * control room's editor: the keys valid at the cursor with their descriptions, the values a
 * known field takes (enum, const, boolean), and the description of a key under the pointer.
 *
 * The cursor's path is read from indentation and list dashes line by line, not from a YAML
 * parse: the text being typed is usually not valid YAML yet.
 */

type Schema = Record<string, unknown>;
/** A path segment: a key, or `ITEM` for "an element of this list". */
const ITEM = Symbol('item');
type Segment = string | typeof ITEM;

interface LineShape {
  /** Columns of the list dashes before the key. */
  dashes: number[];
  key?: string;
  keyCol: number;
  blank: boolean;
}

const KEY = /^([A-Za-z_$][\w$.-]*|"[^"]*"|'[^']*')\s*:(?:\s|$)/;

function shape(line: string): LineShape {
  let col = line.length - line.trimStart().length;
  const dashes: number[] = [];
  while (line[col] === '-' && (line[col + 1] === ' ' || col + 1 === line.length)) {
    dashes.push(col);
    col += 1;
    while (line[col] === ' ') col++;
  }
  const rest = line.slice(col);
  const m = KEY.exec(rest);
  const blank = !dashes.length && (!rest.trim() || rest.startsWith('#'));
  return { dashes, key: m?.[1]?.replace(/^["']|["']$/g, ''), keyCol: col, blank };
}

/** The path of the mapping a key at column `col` on line `at` belongs to (dashes on that line given). */
function parentPath(lines: readonly string[], at: number, col: number, dashes: number[]): Segment[] {
  const path: Segment[] = dashes.map(() => ITEM);
  let want = dashes[0] ?? col;
  for (let i = at - 1; i >= 0 && want > 0; i--) {
    const s = shape(lines[i] ?? '');
    if (s.blank) continue;
    if (s.key !== undefined && s.keyCol < want) {
      path.unshift(...s.dashes.map((): Segment => ITEM), s.key);
      want = s.dashes[0] ?? s.keyCol;
      continue;
    }
    // A list item this key sits in (its dash is left of the key): the key is one of the item's.
    const outer = s.dashes.filter((d) => d < want);
    if (outer.length) {
      path.unshift(...outer.map((): Segment => ITEM));
      want = outer[0] ?? 0;
    }
  }
  return path;
}

/** Follow `$ref` (local) and merge `anyOf`/`oneOf`/`allOf` alternatives that are objects or arrays. */
function resolve(root: Schema, s: unknown, depth = 0): Schema {
  if (!s || typeof s !== 'object' || depth > 20) return {};
  let node = s as Schema;
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    let target: unknown = root;
    for (const part of ref.slice(2).split('/')) target = (target as Schema | undefined)?.[part];
    node = { ...resolve(root, target, depth + 1), ...(typeof node.description === 'string' ? { description: node.description } : {}) };
  }
  const alts = [node.anyOf, node.oneOf, node.allOf].flatMap((a) => (Array.isArray(a) ? a : []));
  if (!alts.length) return node;
  const merged: Schema = { ...node, properties: { ...((node.properties as Schema) ?? {}) } };
  for (const alt of alts.map((a) => resolve(root, a, depth + 1))) {
    Object.assign(merged.properties as Schema, { ...((alt.properties as Schema) ?? {}), ...(merged.properties as Schema) });
    if (alt.items && !merged.items) merged.items = alt.items;
    if (Array.isArray(alt.enum)) merged.enum = [...((merged.enum as unknown[]) ?? []), ...alt.enum];
    if (alt.const !== undefined) merged.enum = [...((merged.enum as unknown[]) ?? []), alt.const];
    if (alt.type === 'boolean') merged.type = 'boolean';
    if (!merged.description && typeof alt.description === 'string') merged.description = alt.description;
  }
  return merged;
}

function walk(root: Schema, path: Segment[]): Schema | undefined {
  let s = resolve(root, root);
  for (const seg of path) {
    const next = seg === ITEM ? s.items : (s.properties as Schema | undefined)?.[seg];
    if (next === undefined) return undefined;
    s = resolve(root, next);
  }
  return s;
}

/** A key the schema allows here, or a value a field takes. */
interface SchemaHint {
  label: string;
  detail?: string;
}

/** What to offer at the end of `lineText` (the line up to the cursor), line `at` of `lines`. */
export function hintsAt(
  root: Schema,
  lines: readonly string[],
  at: number,
  lineText: string,
): { kind: 'key' | 'value'; from: number; hints: SchemaHint[] } | undefined {
  const s = shape(lineText);
  const value = s.key !== undefined ? /:\s*([^\s#]*)$/.exec(lineText.slice(s.keyCol)) : null;
  if (s.key !== undefined && value) {
    const field = walk(root, [...parentPath(lines, at, s.keyCol, s.dashes), s.key]);
    if (!field) return undefined;
    const values = Array.isArray(field.enum) ? field.enum : field.const !== undefined ? [field.const] : field.type === 'boolean' ? [true, false] : [];
    const hints = values.filter((v) => ['string', 'number', 'boolean'].includes(typeof v)).map((v) => ({ label: String(v) }));
    return hints.length ? { kind: 'value', from: lineText.length - (value[1]?.length ?? 0), hints } : undefined;
  }
  const typed = /[\w$.-]*$/.exec(lineText.slice(s.keyCol))?.[0] ?? '';
  if (lineText.slice(s.keyCol).length !== typed.length) return undefined;
  const parent = walk(root, parentPath(lines, at, s.keyCol, s.dashes));
  const props = (parent?.properties as Schema | undefined) ?? {};
  const hints = Object.entries(props).map(([label, p]) => {
    const d = resolve(root, p).description;
    return { label, ...(typeof d === 'string' ? { detail: d } : {}) };
  });
  return hints.length ? { kind: 'key', from: lineText.length - typed.length, hints } : undefined;
}

/** The description of the key on line `at` when `column` (0-based) is on it. */
export function describeKeyAt(
  root: Schema,
  lines: readonly string[],
  at: number,
  column: number,
): { key: string; from: number; to: number; text: string } | undefined {
  const s = shape(lines[at] ?? '');
  if (s.key === undefined || column < s.keyCol || column > s.keyCol + s.key.length) return undefined;
  const field = walk(root, [...parentPath(lines, at, s.keyCol, s.dashes), s.key]);
  const text = field?.description;
  return typeof text === 'string' ? { key: s.key, from: s.keyCol, to: s.keyCol + s.key.length, text } : undefined;
}
