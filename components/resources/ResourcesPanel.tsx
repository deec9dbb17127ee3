'use client';

import { listResources, listResourceTemplates, type ListedResource, type ResourceTemplate } from '@/lib/client/resources';
import { useInspector } from '@/components/inspector/use-inspector';
import { ListHeading } from './ListHeading';
import { ListFooter } from './ListFooter';
import { ResourceRead } from './ResourceRead';
import { SearchableTable } from './SearchableTable';
import { TemplateForm } from './TemplateForm';
import { usePagedList } from './use-paged-list';
import { useResourceRead } from './use-resource-read';
import { NameText } from '@/components/ui/NameText';

/**
 * The resources panel: resources/list (a searchable table, virtualized when long) and
 * resources/templates/list, every page followed (usePagedList), with the last page's caching hints; Read on a resource or an expanded template shows its contents in the viewer
 * for their MIME type. Nothing is asked of a server that does not advertise `resources`.
 */

const ROW_HEIGHT = 36;
/** Templates each carry a form: more than this many are not drawn. */
const MAX_TEMPLATES = 200;

function ResourceRow({ r, onRead, compact }: { r: ListedResource; onRead(): void; compact: boolean }) {
  return (
    <tr data-resource={r.uri} className="border-t border-border align-top" style={compact ? { height: ROW_HEIGHT } : undefined}>
      <td className={`px-2 py-1.5 ${compact ? 'truncate' : ''}`}>
        <button type="button" data-testid="read-resource" className="font-mono text-accent hover:underline" onClick={onRead}>
          <NameText text={r.title ?? r.name} />
        </button>
        {r.description && !compact ? (
          <p className="text-muted" dir="auto">
            {r.description}
          </p>
        ) : null}
      </td>
      <td className={`px-2 py-1.5 font-mono ${compact ? 'truncate' : 'break-all'}`} title={compact ? r.uri : undefined}>
        <NameText text={r.uri} />
      </td>
      <td className="px-2 py-1.5 font-mono">{r.mimeType ?? '—'}</td>
    </tr>
  );
}

/** Whether a resource's name, title, URI or description holds `q` (lower case). */
const resourceMatches = (r: ListedResource, q: string) =>
  r.name.toLowerCase().includes(q) || r.uri.toLowerCase().includes(q) || !!r.title?.toLowerCase().includes(q) || !!r.description?.toLowerCase().includes(q);

const RESOURCE_HEAD = (
  <tr>
    <th className="px-2 py-1.5 font-medium">Name</th>
    <th className="px-2 py-1.5 font-medium">URI</th>
    <th className="px-2 py-1.5 font-medium">MIME</th>
  </tr>
);

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
  // resources/list_changed says "the list of resources it can read from has changed": templates are read from too.
  const changes = useInspector((s) => s.connection.listChanges.resources);
  const resources = usePagedList(listResources, offered, changes);
  const templates = usePagedList(listResourceTemplates, offered, changes);
  const { state, read } = useResourceRead();

  if (!connected) return <p className="text-xs text-muted">Connect to a server to browse its resources.</p>;
  if (!offered) return <p className="text-xs text-muted">The server does not advertise resources.</p>;
  return (
    <section data-testid="resources-panel" className="space-y-3">
      <ListHeading name="resources" title="Resources" count={resources.count} onRefresh={resources.refresh} />
      <SearchableTable
        name="resources"
        items={resources.items}
        count={resources.count}
        matches={resourceMatches}
        head={RESOURCE_HEAD}
        columns={3}
        rowHeight={ROW_HEIGHT}
        row={(r, compact) => <ResourceRow key={r.uri} r={r} compact={compact} onRead={() => void read(r.uri)} />}
        empty={resources.loading ? 'Listing…' : 'The server lists no resources.'}
      />
      <ListFooter {...resources} onMore={resources.loadMore} />
      <ResourceRead state={state} />
      <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">Templates ({templates.count.toLocaleString('en-US')})</h3>
      <ul data-testid="resource-templates" className="space-y-3">
        {templates.items.slice(0, Math.min(templates.count, MAX_TEMPLATES)).map((t) => (
          <Template key={t.uriTemplate} t={t} onRead={(uri) => void read(uri)} />
        ))}
      </ul>
      {templates.count > MAX_TEMPLATES ? (
        <p className="text-xs text-muted" data-testid="templates-cut">
          The first {MAX_TEMPLATES} of {templates.count.toLocaleString('en-US')} templates are shown.
        </p>
      ) : null}
      <ListFooter {...templates} onMore={templates.loadMore} />
    </section>
  );
}
