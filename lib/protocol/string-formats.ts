/**
 * The string formats a form elicitation's `requestedSchema` may name (email, uri, date,
 * date-time), checked the same way by the inspector's form (lib/client/elicitation-form.ts),
 * before it sends an answer, and by the mock (lib/protocol/mrtr.ts), when it receives one: a
 * client that skips the check gets the mock's refusal, not a silent accept.
 */

/** A format a form field may carry. */
export type TextFormat = 'email' | 'uri' | 'date' | 'date-time';

/** Every format, in the order the spec lists them. */
export const TEXT_FORMATS: readonly TextFormat[] = ['email', 'uri', 'date', 'date-time'];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

/** A real calendar day as YYYY-MM-DD (2026-02-30 is not one). */
function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  // The pattern's three groups are not optional: a match has them all.
  const [year, month, day] = [+m[1]!, +m[2]! - 1, +m[3]!];
  const d = new Date(Date.UTC(year, month, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month && d.getUTCDate() === day;
}

/** Whether `text` is written in `format`. */
export function matchesFormat(format: TextFormat, text: string): boolean {
  switch (format) {
    case 'email':
      return EMAIL.test(text);
    case 'uri':
      return URL.canParse(text);
    case 'date':
      return validDate(text);
    case 'date-time': {
      const m = DATE_TIME.exec(text);
      // Group 1 (the date) is not optional.
      return !!m && validDate(m[1]!);
    }
  }
}

/** How to write a value in `format`, for an error message: "an email address like name@example.com". */
export const FORMAT_EXAMPLES: Record<TextFormat, string> = {
  email: 'an email address like name@example.com',
  uri: 'an absolute URI like https://example.com',
  date: 'a date as YYYY-MM-DD',
  'date-time': 'a date and time like 2026-07-28T14:30:00Z',
};

/** A string's length as JSON Schema counts it: in code points, so an emoji is one character. */
export const codePoints = (text: string): number => [...text].length;
