/**
 * Human output goes to a terminal, and part of it comes from the server being inspected (tool
 * results, descriptions, status messages, error texts). Loupe prints no colour of its own, and a
 * server must not be able to print any either, nor move the cursor, retitle the window or hide
 * text: control characters other than newline and tab are shown as `\xNN` escapes instead.
 * JSON output needs none of this; JSON.stringify escapes them.
 */

// C0 controls but \t and \n, DEL, and the C1 controls (U+009B is a one-character CSI).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with every control character but newline and tab made visible and harmless. */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
