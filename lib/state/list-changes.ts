import type { SubscriptionFilter } from '../protocol';
import type { ClientSession } from '../client/session';

/**
 * A server's lists change while the inspector shows them. Its notice is a
 * `notifications/{tools,prompts,resources}/list_changed`: a 2025-11-25 server sends it on the
 * session's GET stream, which the inspector keeps open; a 2026-07-28 server sends it only on a
 * `subscriptions/listen` that asked for it, so once connected the inspector opens one for the
 * lists the server says change (`capabilities.<list>.listChanged`). The tools are listed again
 * by the connection; the prompts and resources panels list again when their count moves.
 */

/** A list a server may announce changes of. */
export type ChangingList = 'tools' | 'prompts' | 'resources';

/** How many times each panel's list was announced changed since the connection began. */
export type ListChanges = Readonly<Record<Exclude<ChangingList, 'tools'>, number>>;

export const NO_LIST_CHANGES: ListChanges = { prompts: 0, resources: 0 };

const NOTICES: Readonly<Record<string, ChangingList>> = {
  'notifications/tools/list_changed': 'tools',
  'notifications/prompts/list_changed': 'prompts',
  'notifications/resources/list_changed': 'resources',
};

/** The list a notification says changed, if it is a list_changed notice. */
export function changedList(method: string): ChangingList | undefined {
  return Object.hasOwn(NOTICES, method) ? NOTICES[method] : undefined;
}

/** The listen filter for the lists `capabilities` says change, or undefined when none does. */
export function listChangeFilter(capabilities: Record<string, unknown> | undefined): SubscriptionFilter | undefined {
  const changes = (list: ChangingList) => {
    const c = capabilities?.[list];
    return !!c && typeof c === 'object' && (c as { listChanged?: unknown }).listChanged === true;
  };
  const filter: SubscriptionFilter = {
    ...(changes('tools') ? { toolsListChanged: true } : {}),
    ...(changes('prompts') ? { promptsListChanged: true } : {}),
    ...(changes('resources') ? { resourcesListChanged: true } : {}),
  };
  return Object.keys(filter).length ? filter : undefined;
}

/**
 * On a 2026-07-28 connection, keep a listen for the lists `capabilities` says change; after a
 * dropped stream is re-opened, every watched list counts as changed (a notice may have been
 * missed). Closed with `signal` (and with the session). Nothing is opened when no list changes.
 */
export function watchListChanges(
  session: Pick<ClientSession, 'listen'>,
  capabilities: Record<string, unknown> | undefined,
  onChanged: (list: ChangingList) => void,
  signal: AbortSignal,
): void {
  const filter = listChangeFilter(capabilities);
  if (!filter) return;
  const watched = (['tools', 'prompts', 'resources'] as const).filter((l) => filter[`${l}ListChanged`]);
  session.listen(filter, { onResync: () => watched.forEach(onChanged) }, { signal });
}
