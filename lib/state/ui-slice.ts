import type { SliceGet, SliceSet } from './slice';

/**
 * UI state shared across the inspector's components: whether masked header values (task ids
 * in `Mcp-Name`, Authorization, cookies) are revealed, the detail pane's tab, and which side
 * panel is shown.
 */

type DetailTab = 'json' | 'headers' | 'diff' | 'lints';

interface UiState {
  /** Show masked header values in clear (off by default; task ids are bearer tokens). */
  reveal: boolean;
  detailTab: DetailTab;
  /** The side panel shown (ids chosen by the panels: 'tools', 'tasks', 'streams', ...). */
  panel: string;
  setReveal(reveal: boolean): void;
  setDetailTab(tab: DetailTab): void;
  setPanel(panel: string): void;
}

/** The ui part of the inspector state. */
export interface UiSlice {
  ui: UiState;
}

/** The ui slice of the inspector store. */
export function createUiSlice(set: SliceSet<UiSlice>, _get: SliceGet<UiSlice>): UiSlice {
  const update = (patch: Partial<UiState>) => set((s) => ({ ui: { ...s.ui, ...patch } }));
  return {
    ui: {
      reveal: false,
      detailTab: 'json',
      panel: 'tools',
      setReveal: (reveal) => update({ reveal }),
      setDetailTab: (detailTab) => update({ detailTab }),
      setPanel: (panel) => update({ panel }),
    },
  };
}
