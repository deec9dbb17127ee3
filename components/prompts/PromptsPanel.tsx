'use client';

import { useMemo, useState } from 'react';
import { listPrompts, type ListedPrompt } from '@/lib/client/prompts';
import { useInspector } from '@/components/inspector/use-inspector';
import { ListFooter } from '@/components/resources/ListFooter';
import { ListHeading } from '@/components/resources/ListHeading';
import { usePagedList } from '@/components/resources/use-paged-list';
import { SearchableTable } from '@/components/resources/SearchableTable';
import { PromptForm } from './PromptForm';
import { NameText } from '@/components/ui/NameText';

const ROW_HEIGHT = 36;

/** Whether a prompt's name, title or description holds `q` (lower case). */
const promptMatches = (p: ListedPrompt, q: string) =>
  p.name.toLowerCase().includes(q) || !!p.title?.toLowerCase().includes(q) || !!p.description?.toLowerCase().includes(q);

const PROMPT_HEAD = (
  <tr>
    <th className="px-2 py-1.5 font-medium">Name</th>
    <th className="px-2 py-1.5 font-medium">Description</th>
  </tr>
);

/** The prompts panel: prompts/list (every page, a searchable table virtualized when long), and the chosen prompt's form and messages. */
export function PromptsPanel() {
  const offered = useInspector((s) => !!s.connection.server?.capabilities?.prompts);
  const connected = useInspector((s) => s.connection.status === 'connected');
  const epoch = useInspector((s) => s.connection.epoch);
  const changes = useInspector((s) => s.connection.listChanges.prompts);
  const prompts = usePagedList(listPrompts, offered, changes);
  const [selected, setSelected] = useState<string>();
  // `items` grows in place as pages arrive; `count` (a dependency) moves when it does, so a chosen
  // prompt on a later page is found again after a refresh or a reconnection lists from scratch.
  // biome-ignore lint/correctness/useExhaustiveDependencies: count is the trigger
  const prompt = useMemo(() => (selected === undefined ? undefined : prompts.items.find((p) => p.name === selected)), [prompts.items, prompts.count, selected]);

  if (!connected) return <p className="text-xs text-muted">Connect to a server to browse its prompts.</p>;
  if (!offered) return <p className="text-xs text-muted">The server does not advertise prompts.</p>;
  return (
    <section data-testid="prompts-panel" className="space-y-3">
      <ListHeading name="prompts" title="Prompts" count={prompts.count} onRefresh={prompts.refresh} />
      <SearchableTable
        name="prompts"
        items={prompts.items}
        count={prompts.count}
        matches={promptMatches}
        head={PROMPT_HEAD}
        columns={2}
        rowHeight={ROW_HEIGHT}
        row={(p, compact) => (
          <tr key={p.name} data-prompt={p.name} className="border-t border-border align-top" style={compact ? { height: ROW_HEIGHT } : undefined}>
            <td className={`px-2 py-1.5 ${compact ? 'truncate' : ''}`}>
              <button type="button" data-testid="select-prompt" className="font-mono text-accent hover:underline" onClick={() => setSelected(p.name)}>
                <NameText text={p.name} />
              </button>
              {p.arguments?.length ? <span className="ml-2 text-muted">({p.arguments.map((a) => a.name).join(', ')})</span> : null}
            </td>
            <td className={`px-2 py-1.5 text-muted ${compact ? 'truncate' : ''}`} title={compact ? p.description : undefined}>
              {p.description ? <bdi>{p.description}</bdi> : '—'}
            </td>
          </tr>
        )}
        empty={prompts.loading ? 'Listing…' : 'The server lists no prompts.'}
      />
      <ListFooter {...prompts} onMore={prompts.loadMore} />
      {prompt ? <PromptForm key={`${epoch}:${prompt.name}`} prompt={prompt} /> : null}
    </section>
  );
}
