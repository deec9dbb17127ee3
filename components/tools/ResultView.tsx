'use client';

import type { JsonRpcErrorObject } from '@/lib/protocol';
import { displayJson } from '@/lib/shared/display-json';
import { asRecord } from '@/lib/shared/records';
import { keyedByContent } from '@/components/ui/content-keys';
import { ContentBlock } from '@/components/resources/ContentBlock';

/**
 * A CallToolResult as a person reads it: the content blocks (text in full, images and audio as
 * media, embedded resources in their viewer, resource links by URI; see ContentBlock), structuredContent as JSON, and `isError: true` flagged as a tool error that is
 * still a result (the call completed; the tool reports a failure), never as a protocol failure.
 */

/** What a block shows, for its key: its kind and its text or URI. */
function blockKey(block: unknown): string {
  const b = asRecord(block) ?? {};
  const shown = typeof b.text === 'string' ? b.text : typeof b.uri === 'string' ? b.uri : '';
  // The start is enough to tell blocks apart; a 50 MB key would be copied and compared on every render.
  return `${String(b.type)}:${shown.length}:${shown.slice(0, 256)}`;
}

/** A tool result (complete outcome, or a completed task's `result`). */
export function ResultView({ result, testId = 'tool-result' }: { result: Record<string, unknown>; testId?: string }) {
  const content = Array.isArray(result.content) ? result.content : undefined;
  const isError = result.isError === true;
  return (
    <div
      data-testid={testId}
      data-outcome="complete"
      data-is-error={isError ? 'true' : 'false'}
      className={`space-y-2 rounded-md border p-3 ${isError ? 'border-danger/40 bg-danger/5' : 'border-border bg-surface'}`}
    >
      {isError ? (
        <p className="text-xs font-medium text-danger" data-testid="is-error">
          Tool error (isError: true) — a result the tool returned, not a protocol failure
        </p>
      ) : null}
      {content ? (
        keyedByContent(content, blockKey).map(({ key, item }) => <ContentBlock key={key} block={item} />)
      ) : (
        <p className="text-xs text-danger">The result has no content array.</p>
      )}
      {result.structuredContent !== undefined ? (
        <details className="text-xs">
          <summary className="cursor-pointer text-muted">structuredContent</summary>
          <pre className="mt-1 overflow-x-auto">{displayJson(result.structuredContent)}</pre>
        </details>
      ) : null}
    </div>
  );
}

/** A JSON-RPC error answer (or a failed task's error). */
export function ErrorView({ error, testId = 'tool-result' }: { error: JsonRpcErrorObject; testId?: string }) {
  return (
    <div data-testid={testId} data-outcome="error" role="alert" className="space-y-1 rounded-md border border-danger/40 bg-danger/10 p-3 text-sm text-danger">
      <p className="font-mono">
        {error.code} {error.message}
      </p>
      {error.data !== undefined ? <pre className="overflow-x-auto text-xs">{displayJson(error.data)}</pre> : null}
    </div>
  );
}

/** No answer, an invalid one, or a local refusal. */
export function ProblemView({ kind, text, testId = 'tool-result' }: { kind: string; text: string; testId?: string }) {
  return (
    <p data-testid={testId} data-outcome={kind} role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 font-mono text-sm text-danger">
      {kind}: {text}
    </p>
  );
}
