import { asRecord } from '../shared/records';

/**
 * What a real server sent is valid MCP but not always a valid scenario: the scenario format is
 * strict (content-schema.ts, schema.ts) so a typo cannot pass, and a server may add a key of its
 * own to a content block, return a non-object structuredContent, or (2026-07-28) list an
 * outputSchema whose root is not an object. The converter fits such values to the format and
 * says what it changed in `notes`, so the file always validates and nothing changes silently.
 */

export type Notes = string[];

/** The keys each content block type may have in a scenario (content-schema.ts BLOCKS). */
const BLOCK_KEYS: Record<string, readonly string[]> = {
  text: ['type', 'text', 'annotations', '_meta'],
  image: ['type', 'data', 'mimeType', 'annotations', '_meta'],
  audio: ['type', 'data', 'mimeType', 'annotations', '_meta'],
  resource_link: ['type', 'uri', 'name', 'title', 'description', 'mimeType', 'size', 'icons', 'annotations', '_meta'],
  resource: ['type', 'resource', 'annotations', '_meta'],
};
const RESULT_KEYS = ['content', 'structuredContent', 'isError', '_meta'];
const RESOURCE_KEYS = ['uri', 'mimeType', 'text', 'blob', '_meta'];

/** Annotations keep the three keys the format knows, with values of the right type. */
function fitAnnotations(a: Record<string, unknown>, where: string, notes: Notes): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (Array.isArray(a.audience) && a.audience.every((x) => x === 'user' || x === 'assistant')) out.audience = a.audience;
  if (typeof a.priority === 'number' && a.priority >= 0 && a.priority <= 1) out.priority = a.priority;
  if (typeof a.lastModified === 'string') out.lastModified = a.lastModified;
  const dropped = Object.keys(a).filter((k) => !(k in out));
  if (dropped.length) notes.push(`${where}: dropped annotation ${dropped.join(', ')} (not audience, priority 0..1 or lastModified)`);
  return out;
}

/** One content block fitted to the scenario format; a block of an unknown type becomes text. */
function fitBlock(block: unknown, where: string, notes: Notes): Record<string, unknown> {
  const b = asRecord(block);
  const keys = typeof b?.type === 'string' ? BLOCK_KEYS[b.type] : undefined;
  if (!b || !keys) {
    notes.push(`${where}: a content block of type ${JSON.stringify(b?.type)} is not one a scenario can hold; written as a text block of its JSON`);
    return { type: 'text', text: JSON.stringify(block) };
  }
  const extra = Object.keys(b).filter((k) => !keys.includes(k));
  if (extra.length) notes.push(`${where}: dropped key ${extra.join(', ')} of a ${b.type} block (not a ${b.type} content field)`);
  const out = Object.fromEntries(Object.entries(b).filter(([k]) => keys.includes(k)));
  if (asRecord(out.annotations)) out.annotations = fitAnnotations(asRecord(out.annotations)!, where, notes);
  else delete out.annotations;
  if (out._meta !== undefined && !asRecord(out._meta)) delete out._meta;
  const r = asRecord(out.resource);
  if (b.type === 'resource' && r) {
    const extraR = Object.keys(r).filter((k) => !RESOURCE_KEYS.includes(k));
    if (extraR.length) notes.push(`${where}: dropped key ${extraR.join(', ')} of an embedded resource`);
    out.resource = Object.fromEntries(Object.entries(r).filter(([k]) => RESOURCE_KEYS.includes(k)));
  }
  return out;
}

/** Content blocks fitted to the format. */
function fitContent(content: unknown, where: string, notes: Notes): Record<string, unknown>[] {
  if (content === undefined) return [];
  if (!Array.isArray(content)) {
    notes.push(`${where}: content was not a list; written as one text block of its JSON`);
    return [{ type: 'text', text: JSON.stringify(content) }];
  }
  return content.map((c, i) => fitBlock(c, `${where} content[${i}]`, notes));
}

/** A recorded CallToolResult as a scenario result: known keys only, content fitted, structuredContent an object. */
export function fitResult(result: Record<string, unknown>, where: string, notes: Notes): Record<string, unknown> {
  const { resultType: _t, ...rest } = result;
  const extra = Object.keys(rest).filter((k) => !RESULT_KEYS.includes(k));
  if (extra.length) notes.push(`${where}: dropped result key ${extra.join(', ')} (a CallToolResult in a scenario has ${RESULT_KEYS.join(', ')})`);
  const out: Record<string, unknown> = { content: fitContent(rest.content, where, notes) };
  if (rest.structuredContent !== undefined) {
    if (asRecord(rest.structuredContent)) out.structuredContent = rest.structuredContent;
    else {
      notes.push(
        `${where}: dropped structuredContent ${JSON.stringify(rest.structuredContent).slice(0, 60)} (a scenario's structuredContent is an object)${(out.content as unknown[]).length ? '' : '; kept its JSON as a text block'}`,
      );
      if (!(out.content as unknown[]).length) out.content = [{ type: 'text', text: JSON.stringify(rest.structuredContent) }];
    }
  }
  if (typeof rest.isError === 'boolean') out.isError = rest.isError;
  if (asRecord(rest._meta)) out._meta = rest._meta;
  return out;
}

/** A tool's inputSchema fitted: its root must be `type: object`. */
export function fitInputSchema(schema: unknown, where: string, notes: Notes): Record<string, unknown> {
  const s = asRecord(schema);
  if (s?.type === 'object') return s;
  if (s && s.type === undefined) {
    notes.push(`${where}: inputSchema had no type; added type: object (tool arguments are an object)`);
    return { type: 'object', ...s };
  }
  notes.push(`${where}: inputSchema ${s ? `had type ${JSON.stringify(s.type)}` : 'was missing'}; written as { type: object } (tool arguments are an object)`);
  return { type: 'object' };
}

/** A tool's outputSchema fitted, or undefined when its root is not an object (2026-07-28 allows that, a scenario does not). */
export function fitOutputSchema(schema: unknown, where: string, notes: Notes): Record<string, unknown> | undefined {
  const s = asRecord(schema);
  if (schema === undefined || s?.type === 'object') return s;
  notes.push(
    `${where}: dropped outputSchema whose root is ${s ? `type ${JSON.stringify(s.type)}` : JSON.stringify(schema)} (a scenario's outputSchema is type: object, as 2025-11-25 clients require)`,
  );
  return undefined;
}

/** Prompt messages fitted: roles user or assistant, each content one block. */
export function fitMessages(messages: unknown[], where: string, notes: Notes): Record<string, unknown>[] {
  return messages.flatMap((m, i) => {
    const r = asRecord(m);
    if (!r || (r.role !== 'user' && r.role !== 'assistant')) {
      notes.push(`${where} messages[${i}]: dropped a message whose role is ${JSON.stringify(r?.role)} (user or assistant)`);
      return [];
    }
    return [{ role: r.role, content: fitBlock(r.content, `${where} messages[${i}]`, notes) }];
  });
}

/** A `{{path}}` placeholder as the engine fills it (lib/scenario/placeholders.ts). */
const PLACEHOLDER = /\{\{(\s*[\w.$-]+\s*)\}\}/g;

/**
 * The parts of a tool or prompt the mock fills are written with a zero-width space inside any
 * `{{...}}` the server sent: the format has no escape, and a recorded `{{name}}` (a template a
 * server returns as text) would otherwise be filled by the mock, or refused by the validator.
 */
export function defusePlaceholders<T>(value: T, where: string, notes: Notes): T {
  let changed = 0;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string')
      return v.replace(PLACEHOLDER, (_m, inner: string) => {
        changed++;
        return `{\u200b{${inner}}\u200b}`;
      });
    if (Array.isArray(v)) return v.map(walk);
    const r = asRecord(v);
    return r ? Object.fromEntries(Object.entries(r).map(([k, x]) => [k, walk(x)])) : v;
  };
  const out = walk(value) as T;
  if (changed)
    notes.push(
      `${where}: ${changed} recorded {{...}} text(s) written with a zero-width space inside the braces, so the mock sends them as text, not as placeholders`,
    );
  return out;
}
