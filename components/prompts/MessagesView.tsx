'use client';

import type { PromptMessage } from '@/lib/client/prompts';
import { ContentBlock } from '@/components/resources/ContentBlock';

/** The messages prompts/get returned, each with its role and its content in the right viewer. */
export function MessagesView({ messages, description }: { messages: PromptMessage[]; description?: string }) {
  return (
    <div data-testid="prompt-messages" data-count={messages.length} className="space-y-2">
      {description ? <p className="text-xs text-muted">{description}</p> : null}
      <ol className="space-y-2">
        {messages.map((m, i) => (
          // A returned prompt is shown as it came; its order is its identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={i} data-testid="prompt-message" data-role={m.role} className="rounded-md border border-border p-2">
            <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted">{m.role}</p>
            <ContentBlock block={m.content} />
          </li>
        ))}
      </ol>
    </div>
  );
}
