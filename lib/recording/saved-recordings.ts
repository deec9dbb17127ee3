import { loupeFetch } from '../client/api-key';
import { ApiErrorSchema, RecordingListSchema, RecordingRenamedSchema, type RecordingFileSummary } from '../protocol/loupe-api';
import { DeletedSchema } from '../protocol/loupe-api';
import type { z } from 'zod';

/**
 * The saved sessions (autosaved recordings, `.loupe/recordings/`) as the browser sees them through
 * the control API, behind the page's cookie: list, read, rename, delete. Answers are parsed with
 * zod; failures come back as values with the server's words.
 */

type Reply<T> = { ok: true; data: T } | { ok: false; error: string };

const base = '/api/recordings';

async function call<T>(url: string, init: RequestInit, schema: z.ZodType<T> | undefined): Promise<Reply<T>> {
  let res: Response;
  try {
    // The request key: the cookie alone opens nothing (lib/client/api-key.ts).
    res = await loupeFetch(url, { ...init, cache: 'no-store' });
  } catch (e) {
    return { ok: false, error: `Cannot reach Loupe: ${(e as Error).message}` };
  }
  if (!res.ok) {
    const body = ApiErrorSchema.safeParse(await res.json().catch(() => ({})));
    return { ok: false, error: body.success && body.data.error ? body.data.error : `HTTP ${res.status}` };
  }
  if (!schema) return { ok: true, data: (await res.text()) as T };
  const parsed = schema.safeParse(await res.json().catch(() => undefined));
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, error: 'Loupe answered something unexpected' };
}

const at = (name: string) => `${base}/${encodeURIComponent(name)}`;

/** The saved recordings, newest first. */
export async function listSaved(): Promise<Reply<RecordingFileSummary[]>> {
  const r = await call(base, {}, RecordingListSchema);
  return r.ok ? { ok: true, data: r.data.recordings } : r;
}

/** One saved recording's text (opened like a picked file). */
export function readSaved(name: string): Promise<Reply<string>> {
  return call<string>(at(name), {}, undefined);
}

/** The file name a typed name stands for (`.loupe.json` added when missing). */
function recordingFileName(typed: string): string {
  const t = typed.trim();
  return t.endsWith('.loupe.json') ? t : `${t}.loupe.json`;
}

/** Rename a saved recording (the server refuses to overwrite another one). */
export async function renameSaved(name: string, to: string): Promise<Reply<string>> {
  const r = await call(
    `${at(name)}/rename`,
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ to: recordingFileName(to) }) },
    RecordingRenamedSchema,
  );
  return r.ok ? { ok: true, data: r.data.renamed } : r;
}

/** Delete a saved recording. */
export async function deleteSaved(name: string): Promise<Reply<string>> {
  const r = await call(at(name), { method: 'DELETE' }, DeletedSchema);
  return r.ok ? { ok: true, data: r.data.deleted } : r;
}
