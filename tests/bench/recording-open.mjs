// Opening a 100,000-frame recording: JSON parse + migration + validation, as the UI does when a
// file is dropped. The document is written in format version 1 so every migration step runs;
// the current format is timed too. Target: under 2 s.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** A session of `count` frames in format 1: task polls (request, head, JSON body) and SSE progress streams. */
function v1Document(count) {
  const frames = [];
  const taskId = 'bQYvUXCnEfFNGBzI9m9_9_Zr5-o';
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
  };
  let t = Date.UTC(2026, 6, 28, 10);
  let seq = 0;
  let n = 0;
  while (frames.length < count) {
    n++;
    const exchange = `c1:${n}`;
    const base = { connection: 'c1', exchange, rpcId: n };
    const request = { jsonrpc: '2.0', id: n, method: 'tasks/get', params: { taskId, _meta: meta } };
    frames.push({
      ...base,
      seq: seq++,
      time: t++,
      dir: 'out',
      kind: 'request',
      method: 'tasks/get',
      taskId,
      headers: { 'content-type': 'application/json', 'mcp-method': 'tasks/get', 'mcp-name': taskId },
      body: request,
      raw: JSON.stringify(request),
    });
    frames.push({
      ...base,
      seq: seq++,
      time: t++,
      dir: 'in',
      kind: 'response',
      method: 'tasks/get',
      taskId,
      status: 200,
      headers: { 'content-type': n % 5 ? 'application/json' : 'text/event-stream' },
      duration: 3,
    });
    if (n % 5) {
      const result = {
        jsonrpc: '2.0',
        id: n,
        result: {
          resultType: 'complete',
          taskId,
          status: 'working',
          statusMessage: `Step ${n}`,
          createdAt: '2026-07-28T10:00:00.000Z',
          lastUpdatedAt: '2026-07-28T10:00:01.000Z',
          ttlMs: 900000,
          pollIntervalMs: 1000,
        },
      };
      frames.push({ ...base, seq: seq++, time: t++, dir: 'in', kind: 'message', method: 'tasks/get', taskId, body: result, raw: JSON.stringify(result) });
    } else {
      frames.push({ ...base, seq: seq++, time: t++, dir: 'in', kind: 'sse-open', stream: exchange, method: 'tasks/get' });
      for (let p = 1; p <= 3; p++) {
        const note = {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: `p${n}`, progress: p, total: 3, message: `Writing section ${p} of 3` },
        };
        frames.push({
          ...base,
          seq: seq++,
          time: t++,
          dir: 'in',
          kind: 'sse-event',
          stream: exchange,
          method: 'notifications/progress',
          body: note,
          raw: JSON.stringify(note),
        });
      }
      frames.push({ ...base, seq: seq++, time: t++, dir: 'in', kind: 'sse-close', stream: exchange, method: 'tasks/get', reason: 'complete', duration: 4 });
    }
  }
  frames.length = count;
  return {
    version: 1,
    recordedAt: Date.UTC(2026, 6, 28, 10),
    target: 'http://127.0.0.1:3001/mcp',
    era: 'modern',
    client: { name: 'mcp-loupe', version: '0.0.9' },
    frames,
    html: { 'ui://notes/timeline.html': '<!doctype html><title>timeline</title>' },
  };
}

/** Time opening a `count`-frame recording; returns `{ frames, ms }` (ms for format 1, the slowest path). */
export async function recordingOpen({ root, count = 100_000, writeTo }) {
  const outDir = path.join(root, '.bench-build');
  fs.mkdirSync(outDir, { recursive: true });
  const outfile = path.join(outDir, 'recording-open-lib.mjs');
  await build({
    stdin: { contents: "export { parseRecording, serializeRecording } from './lib/recording/schema';", resolveDir: root, loader: 'ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  const { parseRecording, serializeRecording } = await import(pathToFileURL(outfile).href);
  const v1Text = JSON.stringify(v1Document(count));
  const time = (text) => {
    const t0 = performance.now();
    const opened = parseRecording(text);
    const ms = performance.now() - t0;
    if (!opened.ok) throw new Error(`Failed to open the bench recording: ${opened.error}`);
    if (opened.recording.frames.length !== count) throw new Error(`Failed to open the bench recording: ${opened.recording.frames.length} frames`);
    return { ms, recording: opened.recording };
  };
  // Warm up the parser and schemas on a small document first.
  const small = v1Document(1000);
  if (!parseRecording(JSON.stringify(small)).ok) throw new Error('Failed to open the warm-up recording');
  const v1 = time(v1Text);
  // The current format as Loupe writes it (each message once).
  const currentText = serializeRecording(v1.recording);
  const current = time(currentText);
  if (writeTo) fs.writeFileSync(writeTo, currentText);
  return {
    frames: count,
    ms: Math.round(v1.ms),
    msCurrent: Math.round(current.ms),
    mb: +(v1Text.length / 1e6).toFixed(1),
    mbCurrent: +(currentText.length / 1e6).toFixed(1),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
  console.log(await recordingOpen({ root }));
}
