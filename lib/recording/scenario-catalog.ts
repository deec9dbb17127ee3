import type { RecordedExchange } from './exchanges';
import type { Recording } from './schema';
import { defusePlaceholders, fitMessages, type Notes } from './scenario-fit';
import { asRecord } from '../shared/records';

/**
 * The catalogue part of a recording → scenario conversion: resources and prompts as listed, with
 * what was read or got. A session often reads or gets without listing first (`mcp-loupe
 * get-prompt greet`), so what was only read or got becomes an entry too, named as it was asked.
 */

const resultOf = (x: RecordedExchange) => asRecord(x.response?.result);

/** Items of every page of a list method, the last occurrence of each key winning. */
export function listed(xs: RecordedExchange[], method: string, field: string, key: string): Record<string, unknown>[] {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const x of xs) {
    if (x.method !== method) continue;
    const items = resultOf(x)?.[field];
    if (!Array.isArray(items)) continue;
    for (const item of items) if (asRecord(item) && typeof asRecord(item)![key] === 'string') byKey.set(asRecord(item)![key] as string, asRecord(item)!);
  }
  return [...byKey.values()];
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}

export function resources(recording: Recording, xs: RecordedExchange[]): Record<string, unknown>[] {
  const byUri = new Map<string, Record<string, unknown>>();
  for (const r of listed(xs, 'resources/list', 'resources', 'uri'))
    byUri.set(r.uri as string, { uri: r.uri, name: r.name ?? r.uri, ...pick(r, ['title', 'description', 'mimeType']) });
  for (const x of xs) {
    if (x.method !== 'resources/read') continue;
    for (const c of (resultOf(x)?.contents as unknown[]) ?? []) {
      const item = asRecord(c);
      if (typeof item?.uri !== 'string') continue;
      const base = byUri.get(item.uri) ?? { uri: item.uri, name: item.uri };
      byUri.set(item.uri, { ...base, ...pick(item, ['mimeType', 'text', 'blob']), ...(asRecord(item._meta) ? { _meta: item._meta } : {}) });
    }
  }
  for (const v of recording.views) {
    const html = recording.apps[v.digest];
    if (html !== undefined && !byUri.has(v.uri)) byUri.set(v.uri, { uri: v.uri, name: v.uri, mimeType: 'text/html;profile=mcp-app', text: html });
  }
  return [...byUri.values()];
}

/** A prompt that was got but never listed: its name, and the arguments it was got with (none required). */
function gotOnly(xs: RecordedExchange[], names: Set<string>): Record<string, unknown>[] {
  const byName = new Map<string, Set<string>>();
  for (const x of xs) {
    const name = x.params?.name;
    if (x.method !== 'prompts/get' || typeof name !== 'string' || names.has(name) || !Array.isArray(resultOf(x)?.messages)) continue;
    const args = byName.get(name) ?? new Set<string>();
    for (const k of Object.keys(asRecord(x.params?.arguments) ?? {})) args.add(k);
    byName.set(name, args);
  }
  return [...byName].map(([name, args]) => ({ name, ...(args.size ? { arguments: [...args].map((a) => ({ name: a })) } : {}) }));
}

export function prompts(xs: RecordedExchange[], notes: Notes): Record<string, unknown>[] {
  const list = listed(xs, 'prompts/list', 'prompts', 'name');
  return [...list, ...gotOnly(xs, new Set(list.map((p) => p.name as string)))].map((p) => {
    const got = xs.filter((x) => x.method === 'prompts/get' && x.params?.name === p.name && Array.isArray(resultOf(x)?.messages)).pop();
    const where = `prompt ${String(p.name)}`;
    const fallback = [{ role: 'user', content: { type: 'text', text: typeof p.description === 'string' ? p.description : `Prompt ${String(p.name)}` } }];
    let messages = got ? fitMessages(resultOf(got)!.messages as unknown[], where, notes) : fallback;
    if (!messages.length) {
      notes.push(`${where}: prompts/get returned no message a scenario can hold (it needs at least one); wrote a placeholder message`);
      messages = fallback;
    }
    // Scenario prompt arguments are strict: keep the fields the format knows, drop any extension data.
    const args = Array.isArray(p.arguments)
      ? p.arguments.flatMap((a) => (asRecord(a) ? [pick(asRecord(a)!, ['name', 'title', 'description', 'required'])] : []))
      : undefined;
    return { name: p.name, ...pick(p, ['title', 'description']), ...(args ? { arguments: args } : {}), messages: defusePlaceholders(messages, where, notes) };
  });
}
