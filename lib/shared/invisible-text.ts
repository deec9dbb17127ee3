/**
 * Characters that change how text reads without being seen: bidirectional controls (U+202E makes
 * `invoice‮gpj.exe` read as `invoice` + `exe.jpg`) and zero-width or blank-looking ones (U+200B
 * hides inside a name, so `delete_files` and `delete_\u200Bfiles` look the same). A server chooses
 * its names and texts, so the page shows these as visible markers where a name must be told apart.
 */

/**
 * Bidi controls (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069), zero-width and invisible
 * characters (U+00AD, U+034F, U+115F-U+1160, U+17B4-U+17B5, U+180E, U+200B-U+200D, U+2060-U+2064,
 * U+3164, U+FEFF, U+FFA0).
 */
const INVISIBLE = /\u034F|[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0]/g;

/** The same class, not global: one test answers "none" without an iterator (lints check thousands of names). */
const ANY_INVISIBLE = new RegExp(INVISIBLE.source);

/** The code points of those characters in `text`, in order of first appearance (`U+202E`). */
export function invisibleCodes(text: string): string[] {
  if (!ANY_INVISIBLE.test(text)) return [];
  const seen = new Set<string>();
  for (const m of text.matchAll(INVISIBLE)) seen.add(codeOf(m[0]));
  return [...seen];
}

const codeOf = (ch: string) => `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** `text` with each such character replaced by a visible marker, `⟨U+202E⟩`. */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (ch) => `⟨${codeOf(ch)}⟩`);
}
