'use client';

import { displayJson } from '@/lib/shared/display-json';
import { asRecord } from '@/lib/shared/records';
import { LongText } from '@/components/ui/LongText';
import { ResourceContentSchema } from '@/lib/client/resource-content';
import { ContentView } from './ContentView';

/**
 * One content block of a tool result or a prompt message: text in full, image and audio as
 * media, an embedded resource in its viewer, a resource link as its URI and name (text, never a
 * link: the URI is the server's, `javascript:` included). Very long text is cut (LongText). Anything
 * else as JSON, so a new kind is still visible.
 */
export function ContentBlock({ block }: { block: unknown }) {
  const b = asRecord(block) ?? {};
  if (b.type === 'text' && typeof b.text === 'string')
    return <LongText text={b.text} testId="block-text" className="whitespace-pre-wrap break-words text-sm" />;
  if ((b.type === 'image' || b.type === 'audio') && typeof b.data === 'string')
    return (
      <div data-testid={`block-${b.type}`}>
        <ContentView item={{ blob: b.data, ...(typeof b.mimeType === 'string' ? { mimeType: b.mimeType } : { mimeType: `${b.type}/unknown` }) }} />
      </div>
    );
  if (b.type === 'resource') {
    const r = ResourceContentSchema.safeParse(b.resource);
    if (r.success)
      return (
        <div data-testid="block-resource" className="rounded border border-border p-2">
          <p className="text-xs text-muted">embedded resource</p>
          <ContentView item={r.data} />
        </div>
      );
  }
  if (b.type === 'resource_link' && typeof b.uri === 'string')
    return (
      <p data-testid="block-resource-link" className="text-xs">
        → <span className="font-mono">{b.uri}</span>
        {typeof b.name === 'string' ? <span className="ml-2">{b.name}</span> : null}
        {typeof b.mimeType === 'string' ? <span className="ml-2 text-muted">({b.mimeType})</span> : null}
        {typeof b.description === 'string' ? <span className="block text-muted">{b.description}</span> : null}
      </p>
    );
  return <pre className="overflow-x-auto text-xs">{displayJson(block)}</pre>;
}
