'use client';

import { useCallback, useState } from 'react';
import { useInspector, useInspectorStore } from '@/components/inspector/use-inspector';
import { describeOutcome } from '@/lib/client/results';
import { displayJsonText } from '@/lib/shared/display-json';
import { absoluteUrl } from '@/lib/state/connection-slice';
import { curlCommand, parseEditedRequest, requestOfEntry } from '@/lib/state/request-curl';
import { selectBuffer, selectReveal } from '@/lib/state/selectors';
import { previewOf } from '@/lib/state/timeline-entry';
import type { TimelineEntry } from '@/lib/state/timeline-types';

function pretty(text: string): string {
  return displayJsonText(text).text;
}

/**
 * The request behind a timeline entry and what can be done with it: copy as cURL (secrets as
 * the header view shows them: masked unless revealed), copy its JSON, and send an edited copy
 * through the current session (a new id; the new exchange lands on the timeline like any other).
 */
export function useRequestActions(entry: TimelineEntry) {
  const store = useInspectorStore();
  const buffer = useInspector(selectBuffer);
  const reveal = useInspector(selectReveal);
  const session = useInspector((s) => s.connection.session);
  const url = useInspector((s) => s.connection.config.url);
  const [note, setNote] = useState<string>();
  const [draft, setDraft] = useState<string>();
  const [sending, setSending] = useState(false);
  const request = requestOfEntry(buffer, entry);
  const body = request ? (buffer.fullBody(request.id) ?? previewOf(request) ?? '') : '';

  const copy = useCallback(async (what: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setNote(`Copied ${what}`);
    } catch (e) {
      setNote(`The browser refused the clipboard (${(e as Error).message}); nothing was copied.`);
    }
  }, []);

  const copyCurl = () => copy('cURL', curlCommand({ url: absoluteUrl(url), headers: request?.headers, body, method: request?.method, reveal }));
  const copyJson = () => copy('JSON', pretty(body));
  const edit = () => {
    setNote(undefined);
    setDraft(pretty(body));
  };
  const send = async () => {
    if (draft === undefined) return;
    const parsed = parseEditedRequest(draft);
    if (!parsed.ok) return setNote(parsed.error);
    if (!session) return setNote('Not connected: connect first, then send.');
    setSending(true);
    setNote(`Sending ${parsed.method}…`);
    // Never re-sent on its own: the user edits side effects on purpose, once.
    const out = await session.request(parsed.method, parsed.params, { retry: 'never' });
    setSending(false);
    setNote(`${parsed.method}: ${out.type === 'complete' ? 'answered' : describeOutcome(out)}`);
    setDraft(undefined);
  };
  return {
    available: !!request && body.length > 0 && !request.truncated,
    note,
    draft,
    sending,
    reveal,
    setReveal: (r: boolean) => store.getState().ui.setReveal(r),
    setDraft,
    copyCurl,
    copyJson,
    edit,
    send,
  };
}
