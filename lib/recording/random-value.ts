/**
 * Whether a value looks randomly generated (a key, an HMAC, a signature) rather than written by
 * a person (an object key, a file name, a word with a year in it). Field names such as `key`,
 * `sig` and `signature` are too common to redact on their own, so their value decides, and a
 * mangled `storage.key: "invoices2024Q1final"` costs as much trust as a missed key: the value
 * must be long and varied, not merely letters mixed with digits.
 */

/** Shannon entropy of a string, in bits per character. */
function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Random parts are at least this long: ids people write (`invoices2024Q1final`) are shorter. */
const MIN_LENGTH = 20;
/** Bits per character: hex keys reach about 3.7 or more, base64 keys 4.5, repetitive ids less. */
const MIN_BITS = 3.5;

/** A run of 20 or more characters with letters and digits and 3.5 bits per character or more. */
const randomRun = (part: string) => part.length >= MIN_LENGTH && /\d/.test(part) && /[A-Za-z]/.test(part) && shannonEntropy(part) >= MIN_BITS;

/**
 * No spaces, and a run between separators (`_ - . : /`, so a path or a dotted map key splits into
 * its words) that looks random; or base64 of 32 or more characters, whose `/` and `+` are its own.
 */
export function looksRandom(value: string): boolean {
  if (!/^[\x21-\x7e]{20,}$/.test(value)) return false;
  if (value.split(/[_\-.:/]/).some(randomRun)) return true;
  return /^[A-Za-z0-9+/]{32,}={0,2}$/.test(value) && /[A-Z]/.test(value) && /[a-z]/.test(value) && randomRun(value.replace(/=+$/, ''));
}
