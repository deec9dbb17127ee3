'use client';

import { invisibleCodes, showInvisible } from '@/lib/shared/invisible-text';

/**
 * A name a server chose (a tool, resource or prompt name, a URI, a title), shown so it cannot
 * pass for another: bidirectional controls and invisible characters appear as `⟨U+202E⟩`
 * markers, and the text is isolated (`<bdi>`) so its direction cannot spill into what follows.
 */
export function NameText({ text, className }: { text: string; className?: string }) {
  const codes = invisibleCodes(text);
  if (!codes.length) return <bdi className={className}>{text}</bdi>;
  return (
    <bdi
      data-testid="name-marked"
      className={`${className ?? ''} decoration-danger underline decoration-wavy`}
      title={`This name holds ${codes.join(', ')}, shown as markers`}
    >
      {showInvisible(text)}
    </bdi>
  );
}
