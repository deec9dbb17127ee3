'use client';

import { listResources, listResourceTemplates, type ListedResource, type ResourceTemplate } from '@/lib/client/resources';
import { useInspector } from '@/components/inspector/use-inspector';
import { ListFooter } from './ListFooter';
import { ResourceRead } from './ResourceRead';
import { TemplateForm } from './TemplateForm';
import { usePagedList } from './use-paged-list';
import { useResourceRead } from './use-resource-read';
import { NameText } from '@/components/ui/NameText';

/**
 * The resources panel: resources/list and resources/templates/list, page by page with their
 * caching hints; Read on a resource or an expanded template shows its contents in the viewer
 * for their MIME type. Nothing is asked of a server that does not advertise `resources`.
 */

function ResourceRow({ r, onRead }: { r: ListedResource; onRead(): void }) {
  return (
    <tr data-resource={r.uri} className="border-t border-border align-top">
      <td className="px-2 py-1.5">
        <button type="button" data-testid="read-resource" className="font-mono text-accent hover:underline" onClick={onRead}>
          <NameText text={r.title ?? r.name} />
        </button>
        {r.description ? (
          <p className="text-muted" dir="auto">
            {r.description}
          </p>
        ) : null}
      </td>
      <td className="px-2 py-1.5 font-mono break-all">
        <NameText text={r.uri} />
      </td>
      <td className="px-2 py-1.5 font-mono">{r.mimeType ?? '—'}</td>
    </tr>
  );
}

function Template({ t, onRead }: { t: ResourceTemplate; onRead(uri: string): void }) {
  return (
    <li className="space-y-1 text-xs">
      <p>
        <span className="font-medium">
          <NameText text={t.title ?? t.name} />
        </span>{' '}
        <code className="font-mono text-muted">
          <NameText text={t.uriTemplate} />
        </code>
      </p>
      {t.description ? <p className="text-muted">{t.description}</p> : null}
      <TemplateForm template={t} onRead={onRead} />
    </li>
  );
}

export function ResourcesPanel() {
  const offered = useInspector((s) => !!s.connection.server?.capabilities?.resources);
  const connected = useInspector((s) => s.connection.status === 'connected');
  const resources = usePagedList(listResources, offered);
  const templates = usePagedList(listResourceTemplates, offered);
  const { state, read } = useResourceRead();

  if (!connected) return <p className="text-xs text-muted">Connect to a server to browse its resources.</p>;
  if (!offered) return <p className="text-xs text-muted">The server does not advertise resources.</p>;
  return (
    <section data-testid="resources-panel" className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold">
          Resources <span className="font-normal text-muted">({resources.items.length})</span>
        </h2>
        <button type="button" className="text-xs text-accent hover:underline" onClick={resources.refresh}>
          Refresh resources/list
        </button>
      </div>
      <section
        className="overflow-x-auto rounded-lg border border-border"
        aria-label="Resources"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must take focus so a keyboard user can scroll it (WCAG 2.1.1, axe scrollable-region-focusable)
        tabIndex={0}
      >
        <table data-testid="resources-table" className="w-full text-left text-xs">
          <thead className="bg-surface-muted uppercase tracking-wide text-muted">
            <tr>
              <th className="px-2 py-1.5 font-medium">Name</th>
              <th className="px-2 py-1.5 font-medium">URI</th>
              <th className="px-2 py-1.5 font-medium">MIME</th>
            </tr>
          </thead>
          <tbody>
            {resources.items.map((r) => (
              <ResourceRow key={r.uri} r={r} onRead={() => void read(r.uri)} />
            ))}
          </tbody>
        </table>
      </section>
      <ListFooter {...resources} onMore={resources.loadMore} />
      <ResourceRead state={state} />
      <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">Templates ({templates.items.length})</h3>
      <ul data-testid="resource-templates" className="space-y-3">
        {templates.items.map((t) => (
          <Template key={t.uriTemplate} t={t} onRead={(uri) => void read(uri)} />
        ))}
      </ul>
      <ListFooter {...templates} onMore={templates.loadMore} />
    </section>
  );
}
