/**
 * A strict, DOM-free XML reader for checking generated reports: elements, attributes (quoted,
 * unique), text with the five predefined entities and numeric references, one root, an optional
 * declaration. Anything else (an unclosed or crossed tag, a bare `&` or `<`, text outside the
 * root) throws, which is what a CI system's JUnit parser would choke on.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string, at: number): string {
  return text.replace(/&([^;]*);|&|</g, (whole, name: string | undefined) => {
    if (whole === '<') throw new Error(`bare < near offset ${at}`);
    if (name === undefined) throw new Error(`bare & near offset ${at}`);
    if (name in ENTITIES) return ENTITIES[name]!;
    const num = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(name);
    if (!num) throw new Error(`unknown entity &${name}; near offset ${at}`);
    return String.fromCodePoint(num[1]!.startsWith('x') ? Number.parseInt(num[1]!.slice(1), 16) : Number(num[1]));
  });
}

const NAME = '[A-Za-z_][\\w.:-]*';

/** Parse an XML document; throws on anything not well-formed. */
export function parseXml(text: string): XmlElement {
  let i = 0;
  const decl = /^<\?xml[^?]*\?>\s*/.exec(text);
  if (decl) i = decl[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chunk = lt === -1 ? text.slice(i) : text.slice(i, lt);
    if (chunk.length) {
      const top = stack.at(-1);
      if (!top) {
        if (chunk.trim()) throw new Error(`text outside the root at offset ${i}`);
      } else top.text += decode(chunk, i);
    }
    if (lt === -1) break;
    if (text.startsWith('</', lt)) {
      const m = new RegExp(`^</(${NAME})\\s*>`).exec(text.slice(lt));
      const top = stack.pop();
      if (!m || !top || top.name !== m[1]) throw new Error(`mismatched closing tag at offset ${lt}`);
      i = lt + m[0].length;
      continue;
    }
    const m = new RegExp(`^<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>`).exec(text.slice(lt));
    if (!m) throw new Error(`malformed tag at offset ${lt}`);
    const attrs: Record<string, string> = {};
    for (const a of m[2]!.matchAll(new RegExp(`(${NAME})\\s*=\\s*("([^"]*)"|'([^']*)')`, 'g'))) {
      if (a[1]! in attrs) throw new Error(`duplicate attribute ${a[1]} at offset ${lt}`);
      attrs[a[1]!] = decode(a[3] ?? a[4] ?? '', lt);
    }
    const el: XmlElement = { name: m[1]!, attrs, children: [], text: '' };
    const parent = stack.at(-1);
    if (parent) parent.children.push(el);
    else if (root) throw new Error(`second root element at offset ${lt}`);
    else root = el;
    if (!m[3]) stack.push(el);
    i = lt + m[0].length;
  }
  if (stack.length) throw new Error(`unclosed <${stack.at(-1)!.name}>`);
  if (!root) throw new Error('no root element');
  return root;
}
