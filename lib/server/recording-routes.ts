import { openRecordingText } from '../recording/open';
import { RecordingRenameSchema, type Deleted, type RecordingList, type RecordingSaved } from '../protocol/loupe-api';
import type { MockHost } from './mock-host';
import { createRecordingFiles, MAX_RECORDING_BYTES } from './recording-files';
import { replaysOf } from './replay-registry';
import { json, readText } from './respond';

/**
 * The recordings part of the control API (already behind the token gate):
 *
 *   GET /api/recordings              list saved recordings (newest first)
 *   GET /api/recordings/<name>       the recording document
 *   PUT /api/recordings/<name>       save (the browser's autosave); 422 when it is not a recording
 *   DELETE /api/recordings/<name>    delete it
 *   POST /api/recordings/<name>/rename   body { to }: rename it (409 when `to` exists)
 *   POST /api/recordings/replay      body: a recording or HAR → served as a mock at /mcp/replay/<id>
 *                                    (`?loose=1`: unrecorded requests get the next answer of their method)
 */

/** Handle `/api/recordings[/<name>]`; `rest` is the decoded path after `recordings`. */
export async function recordingRoutes(req: Request, host: MockHost, rest: string[], allowedHosts?: string[]): Promise<Response> {
  const files = createRecordingFiles(host.dataDir);
  const name = rest.length === 1 ? rest[0] : undefined;
  if (name === 'replay' && req.method === 'POST') {
    const text = await readText(req, MAX_RECORDING_BYTES);
    if (text === undefined) return json(413, { error: `Recording is larger than ${MAX_RECORDING_BYTES} bytes` });
    const opened = openRecordingText(text, 'the recording');
    if (!opened.ok) return json(422, { error: opened.error });
    const loose = ['1', 'true'].includes(new URL(req.url).searchParams.get('loose') ?? '');
    return json(201, replaysOf(host, allowedHosts).register(opened.recording, { loose }));
  }
  if (rest.length === 0 && req.method === 'GET') return json(200, { recordings: files.list() } satisfies RecordingList);
  if (name !== undefined && req.method === 'GET') {
    const text = files.read(name);
    return text === undefined
      ? json(404, { error: `No recording named ${name}` })
      : new Response(text, { status: 200, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } });
  }
  if (name !== undefined && req.method === 'PUT') {
    const text = await readText(req, MAX_RECORDING_BYTES);
    if (text === undefined) return json(413, { error: `Recording is larger than ${MAX_RECORDING_BYTES} bytes` });
    const saved = files.save(name, text);
    if (!saved.ok) return json(saved.reason === 'invalid-name' ? 400 : 422, { error: saved.message });
    return json(200, { saved: saved.name, frames: saved.frames } satisfies RecordingSaved);
  }
  if (name !== undefined && req.method === 'DELETE')
    return files.remove(name) ? json(200, { deleted: name } satisfies Deleted) : json(404, { error: `No recording named ${name}` });
  const [from, action] = rest;
  if (rest.length === 2 && from !== undefined && action === 'rename' && req.method === 'POST') {
    const text = await readText(req, 4096);
    let body: unknown;
    try {
      body = JSON.parse(text ?? '');
    } catch {
      body = undefined;
    }
    const to = RecordingRenameSchema.safeParse(body);
    if (!to.success) return json(400, { error: 'The body must be { "to": "<new name>.loupe.json" }' });
    const renamed = files.rename(from, to.data.to);
    return renamed.ok ? json(200, { renamed: to.data.to }) : json(renamed.status, { error: renamed.message });
  }
  return json(404, { error: `No control route ${req.method} /api/recordings/${rest.join('/')}` });
}
