import { z } from 'zod';
import { displayJsonText } from '../shared/display-json';

/**
 * How a resource's content (a `resources/read` item, an embedded resource, an image or audio
 * block) is shown: which viewer its MIME type calls for, and for binary data its size and the
 * hex dump of its first bytes. Pure, so the viewers in components/resources stay thin.
 */

type ContentViewer = 'app' | 'json' | 'markdown' | 'text' | 'image' | 'audio' | 'binary';

export const ResourceContentSchema = z.looseObject({
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  blob: z.string().optional(),
});
export type ResourceContent = z.infer<typeof ResourceContentSchema>;

/** The media type without parameters, lowercased: `Text/HTML; profile=x` → `text/html`. */
export function baseMime(mimeType: string | undefined): string {
  return (mimeType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Which viewer shows a content item. `ui://` is an app whatever else it says. */
export function viewerFor(item: { uri?: string; mimeType?: string; text?: string; blob?: string }): ContentViewer {
  if (item.uri?.startsWith('ui://')) return 'app';
  const mime = baseMime(item.mimeType);
  if (item.blob !== undefined) {
    if (mime.startsWith('image/')) return 'image';
    if (mime.startsWith('audio/')) return 'audio';
    return 'binary';
  }
  if (mime === 'application/json' || mime.endsWith('+json')) return 'json';
  if (mime === 'text/markdown') return 'markdown';
  return 'text';
}

/** JSON text pretty-printed (compact when indenting would be huge), or the text as it came when it does not parse. */
export function prettyJson(text: string): { ok: boolean; text: string } {
  return displayJsonText(text);
}

/** The bytes of a base64 string, or undefined when it is not base64. */
export function decodeBase64(data: string): Uint8Array | undefined {
  try {
    const binary = atob(data.replace(/\s+/g, ''));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** A data: URL for an <img> or <audio>; only for base64 that decodes, so nothing else reaches the src. */
export function dataUrl(mimeType: string | undefined, data: string): string | undefined {
  const mime = baseMime(mimeType);
  if (!/^[a-z]+\/[a-z0-9.+-]+$/.test(mime) || !decodeBase64(data)) return undefined;
  return `data:${mime};base64,${data.replace(/\s+/g, '')}`;
}

/** `0000  89 50 4e 47 ...  .PNG....` lines of the first `max` bytes, 16 a line. */
export function hexDump(bytes: Uint8Array, max = 256): string {
  const lines: string[] = [];
  const end = Math.min(bytes.length, max);
  for (let at = 0; at < end; at += 16) {
    const row = bytes.subarray(at, Math.min(at + 16, end));
    const hex = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${at.toString(16).padStart(4, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines.join('\n');
}

/** A byte count as people read it. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
