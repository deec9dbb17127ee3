/**
 * The colour theme the user chose: `system` follows the OS, `light` and `dark` override it. The
 * choice lives in localStorage and shows as `data-theme` on <html>, which app/globals.css reads (its color-scheme).
 * THEME_BOOT runs in the page head before anything paints (app/layout.tsx), so a dark choice
 * never flashes light first.
 */

export type ThemeChoice = 'system' | 'light' | 'dark';

const THEME_KEY = 'loupe:theme';

/** The head script: apply a stored light/dark choice before the first paint. */
export const THEME_BOOT = `try{var t=localStorage.getItem('${THEME_KEY}');if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}`;

/** The stored choice (`system` when none, or storage is off). */
export function storedTheme(): ThemeChoice {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

/** Remember and apply a choice. */
export function applyTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    /* storage off: the choice lasts for this page only */
  }
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
  window.dispatchEvent(new Event(THEME_EVENT));
}

/** Fired on window when the user changes the theme (the system's changes come from matchMedia). */
export const THEME_EVENT = 'loupe:themechange';

/** The theme in effect: the user's choice, else the system's. */
export function effectiveTheme(): 'light' | 'dark' {
  if (typeof document === 'undefined') return 'light';
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}
