/**
 * A small import scanner for TypeScript and JavaScript (with JSX): finds every module a file names
 * through `import … from`, `import '…'`, `export … from`, `import()`, `require()`,
 * `import x = require()` and `typeof import()` types, with the line and whether only types are
 * imported. It tokenizes instead of parsing, so the boundary check runs without loading the
 * TypeScript compiler (most of its time). Strings and regular expressions end at a line break, so
 * text the tokenizer misreads (an apostrophe in JSX text, say) spoils one line at most.
 */

const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'instanceof',
  'new',
  'void',
  'delete',
  'throw',
  'yield',
  'await',
  'of',
]);
const PROMISE_METHODS = new Set(['then', 'catch', 'finally']);
/** Module specifiers rarely hold escapes; `\x` reads as `x`, which is enough to name a file. */
const unescapeSpecifier = (s) => (s.includes('\\') ? s.replace(/\\(.)/g, '$1') : s);
const isIdStart = (c) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$' || c > '\x7f';
const isIdPart = (c) => isIdStart(c) || (c >= '0' && c <= '9');

/** Tokens: { t: 'id' | 'str' | 'tpl' | 'p' (punctuation) | 'other', v, line }; comments dropped. */
export function tokenize(text) {
  const toks = [];
  const templates = []; // open `${` depth per template literal being read
  let i = text.startsWith('#!') ? text.indexOf('\n') : 0;
  let line = 1;
  if (i < 0) return toks;
  const push = (t, v) => toks.push({ t, v, line });
  const last = () => toks[toks.length - 1];
  const regexAllowed = () => {
    const p = last();
    return !p || (p.t === 'p' && !')]}'.includes(p.v)) || (p.t === 'id' && KEYWORDS_BEFORE_EXPRESSION.has(p.v));
  };
  /** Reads template text from i (just after ` or }) to its end or next `${`. */
  const readTemplate = (startLine) => {
    const start = i;
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        i += 1;
        return toks.push({ t: 'tpl', v: unescapeSpecifier(text.slice(start, i - 1)), line: startLine, closed: true });
      } else if (c === '$' && text[i + 1] === '{') {
        i += 2;
        templates.push(0);
        return toks.push({ t: 'tpl', v: '', line: startLine, closed: false });
      } else {
        if (c === '\n') line += 1;
        i += 1;
      }
    }
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line += 1;
      i += 1;
    } else if (c <= ' ') i += 1;
    else if (c === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i < 0) break;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (let k = i; k < stop; k += 1) if (text[k] === '\n') line += 1;
      i = stop;
    } else if (c === '"' || c === "'") {
      const start = i + 1;
      i += 1;
      while (i < text.length && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      push('str', unescapeSpecifier(text.slice(start, i)));
      if (text[i] === c) i += 1;
    } else if (c === '`') {
      i += 1;
      readTemplate(line);
    } else if (isIdStart(c)) {
      const start = i;
      while (i < text.length && isIdPart(text[i])) i += 1;
      push('id', text.slice(start, i));
    } else if (c >= '0' && c <= '9') {
      while (i < text.length && (isIdPart(text[i]) || text[i] === '.')) i += 1;
      push('other', 'number');
    } else if (c === '/' && regexAllowed()) {
      let inClass = false;
      i += 1;
      while (i < text.length && text[i] !== '\n' && (inClass || text[i] !== '/')) {
        if (text[i] === '\\') i += 1;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i += 1;
      }
      if (text[i] === '/') i += 1;
      while (i < text.length && isIdPart(text[i])) i += 1;
      push('other', 'regex');
    } else if (c === '.' && text.startsWith('...', i)) {
      push('p', '...');
      i += 3;
    } else if (c === '}' && templates.length && templates[templates.length - 1] === 0) {
      templates.pop();
      i += 1;
      readTemplate(line);
    } else {
      if (templates.length && c === '{') templates[templates.length - 1] += 1;
      if (templates.length && c === '}') templates[templates.length - 1] -= 1;
      push('p', c);
      i += 1;
    }
  }
  return toks;
}

const isSpecifier = (tok) => tok && (tok.t === 'str' || (tok.t === 'tpl' && tok.closed));

/** Whether the element tokens of `{ … }` (between braces) are all `type X` / `type X as Y`. */
function allTypeElements(toks, from, to) {
  const elements = [];
  let current = [];
  for (let k = from; k < to; k += 1) {
    if (toks[k].v === ',' && toks[k].t === 'p') {
      if (current.length) elements.push(current);
      current = [];
    } else current.push(toks[k]);
  }
  if (current.length) elements.push(current);
  return elements.length > 0 && elements.every((e) => e[0].v === 'type' && e.length > 1 && e[1].v !== 'as');
}

/** The index of the `}` closing the `{` at k (brace-balanced), or -1. */
function closingBrace(toks, k) {
  for (let depth = 0, j = k; j < toks.length; j += 1) {
    if (toks[j].t !== 'p') continue;
    if (toks[j].v === '{') depth += 1;
    else if (toks[j].v === '}' && --depth === 0) return j;
  }
  return -1;
}

/** `import …` at k: a declaration, `import x = require()`, `import()` or `import.meta`. */
function readImport(toks, k, add) {
  const prev = toks[k - 1];
  let j = k + 1;
  if (toks[j]?.v === '(') {
    // `typeof import('x')` and `import('x').Name` (not .then/.catch/.finally) are types.
    const after = toks[j + 3]?.v === '.' ? toks[j + 4] : undefined;
    const typeOnly = prev?.v === 'typeof' || (after?.t === 'id' && !PROMISE_METHODS.has(after.v));
    if (isSpecifier(toks[j + 1])) add(toks[j + 1].v, toks[k].line, typeOnly);
    return;
  }
  let typeOnly = false;
  if (toks[j]?.v === 'type' && !['from', ',', '='].includes(toks[j + 1]?.v)) {
    typeOnly = true;
    j += 1;
  }
  if (isSpecifier(toks[j])) return add(toks[j].v, toks[k].line, false);
  if (toks[j]?.t === 'id' && toks[j + 1]?.v === '=') {
    if (toks[j + 2]?.v === 'require' && isSpecifier(toks[j + 4])) {
      toks[j + 2].consumed = true;
      add(toks[j + 4].v, toks[k].line, typeOnly);
    }
    return;
  }
  if (!(toks[j]?.t === 'id' || toks[j]?.v === '{' || toks[j]?.v === '*')) return; // `import.meta`, `{ import: … }`
  let valueBinding = false;
  let named = null;
  for (; j < toks.length && toks[j].v !== ';'; j += 1) {
    const tok = toks[j];
    if (tok.v === 'from' && tok.t === 'id' && isSpecifier(toks[j + 1])) {
      return add(toks[j + 1].v, toks[k].line, typeOnly || (!valueBinding && named === true));
    }
    if (tok.v === '{') {
      const end = closingBrace(toks, j);
      if (end < 0) return;
      named = allTypeElements(toks, j + 1, end);
      j = end;
    } else if (tok.v === '*' || tok.t === 'id') valueBinding = true;
  }
}

/** `export … from` at k; other exports name no module. */
function readExport(toks, k, add) {
  let j = k + 1;
  let typeOnly = false;
  if (toks[j]?.v === 'type' && (toks[j + 1]?.v === '{' || toks[j + 1]?.v === '*')) {
    typeOnly = true;
    j += 1;
  }
  if (toks[j]?.v === '*') {
    j += toks[j + 1]?.v === 'as' ? 3 : 1;
  } else if (toks[j]?.v === '{') {
    const end = closingBrace(toks, j);
    if (end < 0) return;
    typeOnly = typeOnly || allTypeElements(toks, j + 1, end);
    j = end + 1;
  } else return;
  if (toks[j]?.v === 'from' && isSpecifier(toks[j + 1])) add(toks[j + 1].v, toks[k].line, typeOnly);
}

/** Every module a file names: [{ specifier, line, typeOnly }], in source order. */
export function scanImports(text) {
  const toks = tokenize(text);
  const out = [];
  const add = (specifier, line, typeOnly) => out.push({ specifier, line, typeOnly });
  for (let k = 0; k < toks.length; k += 1) {
    const tok = toks[k];
    if (tok.t !== 'id' || (toks[k - 1]?.t === 'p' && toks[k - 1].v === '.')) continue; // `x.import`, `a.require`
    if (tok.v === 'import') readImport(toks, k, add);
    else if (tok.v === 'export') readExport(toks, k, add);
    else if (tok.v === 'require' && toks[k + 1]?.v === '(' && isSpecifier(toks[k + 2]) && !tok.consumed) {
      add(toks[k + 2].v, tok.line, false);
    }
  }
  return out;
}
