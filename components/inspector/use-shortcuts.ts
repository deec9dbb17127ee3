'use client';

import { useEffect } from 'react';
import { useInspectorStore } from './use-inspector';

/**
 * The inspector's keyboard map, in one place (ShortcutsHelp lists the same table):
 *
 *   /      focus the timeline search        j / k   next / previous timeline entry
 *   Enter  open the selected entry           Esc     close the help, clear the search, or the selection
 *   ?      this help
 *
 * None fires while the user types (an input, a select, a text area, an editor), except Esc in
 * the timeline search, which clears it and gives the keys back. j, k and Enter go to the
 * timeline's own key handling (as ArrowDown, ArrowUp and Enter on the list), so they follow
 * whatever rows the timeline shows and filters.
 */

export const SHORTCUTS: readonly { keys: string[]; does: string }[] = [
  { keys: ['/'], does: 'Focus the timeline search' },
  { keys: ['j', '↓'], does: 'Select the next timeline entry' },
  { keys: ['k', '↑'], does: 'Select the previous timeline entry' },
  { keys: ['Enter'], does: 'Open the selected entry (expand it, show its detail)' },
  { keys: ['Esc'], does: 'Close this help; clear the search; clear the selection' },
  { keys: ['?'], does: 'Show these shortcuts' },
];

const SEARCH = '[data-testid="timeline-search"]';
const LIST = '[data-testid="timeline-list"]';

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * Hand a key to the timeline list as if it had been pressed there. The event bubbles back up to
 * the document's handler: `handing` keeps that from handing it over again (an Enter the list did
 * not take would otherwise go round until the stack overflows).
 */
let handing = false;
function toTimeline(key: string): boolean {
  const list = document.querySelector<HTMLElement>(LIST);
  if (!list || handing) return false;
  list.focus({ preventScroll: true });
  handing = true;
  try {
    list.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  } finally {
    handing = false;
  }
  return true;
}

/** Install the keyboard map on the document; `onHelp` opens the help dialog. */
export function useShortcuts(onHelp: () => void): void {
  const store = useInspectorStore();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const search = document.querySelector<HTMLInputElement>(SEARCH);
      if (e.key === 'Escape' && search && e.target === search) {
        if (search.value) {
          // The toolbar's input is React-controlled: set it the way React listens for.
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(search, '');
          search.dispatchEvent(new Event('input', { bubbles: true }));
        }
        search.blur();
        return;
      }
      if (typing(e.target) || document.querySelector('dialog[open]')) return;
      const t = store.getState().timeline;
      let handled = true;
      if (e.key === '/') search?.focus();
      else if (e.key === '?') onHelp();
      else if (e.key === 'j') handled = toTimeline('ArrowDown');
      else if (e.key === 'k') handled = toTimeline('ArrowUp');
      else if (e.key === 'Enter' && t.selectedId !== undefined && !(e.target instanceof HTMLButtonElement || e.target instanceof HTMLAnchorElement)) {
        toTimeline('Enter');
        document.querySelector('[data-testid="detail-pane"]')?.scrollIntoView({ block: 'nearest' });
      } else if (e.key === 'Escape' && t.selectedId !== undefined) t.select(undefined);
      else handled = false;
      if (handled) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [store, onHelp]);
}
