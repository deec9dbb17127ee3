'use client';

import { useState } from 'react';
import { listPrompts } from '@/lib/client/prompts';
import { useInspector } from '@/components/inspector/use-inspector';
import { ListFooter } from '@/components/resources/ListFooter';
import { usePagedList } from '@/components/resources/use-paged-list';
import { PromptForm } from './PromptForm';
import { NameText } from '@/components/ui/NameText';

/** The prompts panel: prompts/list page by page, and the chosen prompt's form and messages. */
export function PromptsPanel() {
  const offered = useInspector((s) => !!s.connection.server?.capabilities?.prompts);
  const connected = useInspector((s) => s.connection.status === 'connected');
  const epoch = useInspector((s) => s.connection.epoch);
  const prompts = usePagedList(listPrompts, offered);
  const [selected, setSelected] = useState<string>();
  const prompt = prompts.items.find((p) => p.name === selected);

  if (!connected) return <p className="text-xs text-muted">Connect to a server to browse its prompts.</p>;
  if (!offered) return <p className="text-xs text-muted">The server does not advertise prompts.</p>;
  return (
    <section data-testid="prompts-panel" className="space-y-3">
      <h2 className="text-sm font-semibold">
        Prompts <span className="font-normal text-muted">({prompts.items.length})</span>
      </h2>
      <ul className="space-y-1 text-xs">
        {prompts.items.map((p) => (
          <li key={p.name} data-prompt={p.name}>
            <button type="button" data-testid="select-prompt" className="font-mono text-accent hover:underline" onClick={() => setSelected(p.name)}>
              <NameText text={p.name} />
            </button>
            {p.arguments?.length ? <span className="ml-2 text-muted">({p.arguments.map((a) => a.name).join(', ')})</span> : null}
            {p.description ? <bdi className="ml-2 text-muted">{p.description}</bdi> : null}
          </li>
        ))}
      </ul>
      <ListFooter {...prompts} onMore={prompts.loadMore} />
      {prompt ? <PromptForm key={`${epoch}:${prompt.name}`} prompt={prompt} /> : null}
    </section>
  );
}
