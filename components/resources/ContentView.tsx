'use client';

import { LongText } from '@/components/ui/LongText';
import { baseMime, dataUrl, decodeBase64, formatBytes, hexDump, prettyJson, viewerFor } from '@/lib/client/resource-content';

/**
 * One piece of content shown with the viewer its MIME type calls for: text as text, JSON pretty,
 * markdown as its text, images as <img> and audio as <audio controls> from the base64 data
 * (only data that decodes becomes a data: URL), other binary as its size and a hex dump of its
 * first bytes. A `ui://` item is left to `onOpenApp` (the app view), when the caller has one.
 */

interface Item {
  uri?: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

function Pre({ text, testId }: { text: string; testId: string }) {
  return (
    <LongText
      as="pre"
      text={text}
      testId={testId}
      className="max-h-80 overflow-auto whitespace-pre-wrap break-words rounded bg-surface-muted p-2 font-mono text-xs"
    />
  );
}

function Binary({ data, mimeType }: { data: string; mimeType?: string }) {
  const bytes = decodeBase64(data);
  if (!bytes) return <p className="text-xs text-danger">The data is not valid base64 ({data.length} characters).</p>;
  return (
    <div data-testid="content-binary" data-bytes={bytes.length} className="space-y-1">
      <p className="text-xs text-muted">
        {baseMime(mimeType) || 'binary'}, {formatBytes(bytes.length)}
        {bytes.length > 256 ? ' (first 256 bytes)' : ''}
      </p>
      <Pre text={hexDump(bytes)} testId="content-hex" />
    </div>
  );
}

/** A resource content item (or an image/audio block, as `{mimeType, blob: data}`). */
export function ContentView({ item, onOpenApp }: { item: Item; onOpenApp?: (uri: string) => void }) {
  const viewer = viewerFor(item);
  const body = (() => {
    switch (viewer) {
      case 'app':
        return onOpenApp && item.uri ? (
          <button type="button" data-testid="open-app" className="text-xs text-accent hover:underline" onClick={() => onOpenApp(item.uri ?? '')}>
            Open {item.uri} in the app view →
          </button>
        ) : (
          <Pre text={item.text ?? `[${item.blob?.length ?? 0} base64 chars]`} testId="content-text" />
        );
      case 'json': {
        const pretty = prettyJson(item.text ?? '');
        return <Pre text={pretty.text} testId={pretty.ok ? 'content-json' : 'content-text'} />;
      }
      case 'markdown':
      case 'text':
        return <Pre text={item.text ?? ''} testId={viewer === 'markdown' ? 'content-markdown' : 'content-text'} />;
      case 'image': {
        const src = dataUrl(item.mimeType, item.blob ?? '');
        return src ? (
          // biome-ignore lint/performance/noImgElement: a data: URL from the server, shown as sent; the static export has no image optimizer
          <img data-testid="content-image" src={src} alt={item.uri ?? 'image content'} className="max-h-80 max-w-full rounded border border-border" />
        ) : (
          <Binary data={item.blob ?? ''} mimeType={item.mimeType} />
        );
      }
      case 'audio': {
        const src = dataUrl(item.mimeType, item.blob ?? '');
        return src ? (
          // biome-ignore lint/a11y/useMediaCaption: the server sends no captions for audio content
          <audio data-testid="content-audio" controls src={src} className="w-full" />
        ) : (
          <Binary data={item.blob ?? ''} mimeType={item.mimeType} />
        );
      }
      default:
        return <Binary data={item.blob ?? ''} mimeType={item.mimeType} />;
    }
  })();
  return (
    <div data-testid="content-view" data-viewer={viewer} className="space-y-1">
      {item.uri || item.mimeType ? (
        <p className="font-mono text-xs text-muted">
          {item.uri ?? ''} {item.mimeType ? <span>({item.mimeType})</span> : null}
        </p>
      ) : null}
      {body}
    </div>
  );
}
