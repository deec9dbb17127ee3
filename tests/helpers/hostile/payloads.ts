/**
 * What a hostile MCP server puts where an inspector shows text: script payloads in every form a
 * page could be tricked into running, links a page could be tricked into following, and text
 * that lies about its direction. Each script payload, if it ever ran in Loupe's origin, sets
 * `window.__loupePwned` (and opens a dialog), so a test reads one global to know.
 */

/** The global a payload sets when it runs; the test asserts it stays unset. */
export const CANARY = '__loupePwned';

const run = `window.${CANARY}=1;alert(1)`;

/** Markup and script payloads, each a complete attack on an HTML sink. */
export const SCRIPT_PAYLOADS = [
  `<img src=x onerror="${run}">`,
  `<script>${run}</script>`,
  `<svg onload="${run}"></svg>`,
  `"><iframe srcdoc="<script>parent.${CANARY}=1</script>"></iframe>`,
  `javascript:${run}`,
  `{{constructor.constructor('${run}')()}}`,
] as const;

/** URLs a page must never make clickable as such. */
export const HOSTILE_URLS = {
  javascript: `javascript:${run}`,
  dataHtml: `data:text/html,<script>${run}</script>`,
  dataHtmlBase64: `data:text/html;base64,${Buffer.from(`<script>${run}</script>`).toString('base64')}`,
} as const;

/** Right-to-left override and zero-width characters: `txt.exe` shown as `exe.txt`, a name with a hidden joiner. */
export const TRICK_TEXT = {
  rtl: 'invoice\u202Egpj.exe',
  zeroWidth: 'rea\u200Bd_\u200Dfile\uFEFF',
} as const;

/** One text carrying every script payload and trick, for a description or a message. */
export const ALL_IN_ONE = [...SCRIPT_PAYLOADS, HOSTILE_URLS.javascript, HOSTILE_URLS.dataHtml, TRICK_TEXT.rtl, TRICK_TEXT.zeroWidth].join(' ');

/** A string of `bytes` ASCII characters (one byte each), cheap to build and to check. */
export function bigText(bytes: number): string {
  return 'A'.repeat(bytes);
}

/** JSON text nested `depth` levels deep (`{"a":{"a":…1…}}`), built as text: no recursion on either side. */
export function deepJsonText(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/**
 * Bytes that are not UTF-8 inside a JSON string: a lone continuation byte, an overlong slash,
 * 0xFF and a truncated 3-byte sequence. A decoder shows each as U+FFFD.
 */
export const INVALID_UTF8 = Buffer.from([0x80, 0xc0, 0xaf, 0xff, 0xe2, 0x82]);
