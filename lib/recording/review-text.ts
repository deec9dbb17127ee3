import type { Recording } from './schema';

/**
 * What the review says when redaction found nothing to replace. "No secrets found" would read as
 * "this file is clean", which redaction cannot know: it replaces what it recognises by name or
 * shape, and a recording redacted before has nothing left that it recognises, whatever else it
 * still holds.
 */

/** One of our pseudonyms, anywhere (secrets.ts gives them). */
const PSEUDONYM = /redacted-[a-z-]+-\d+|(task|session)\d{4,}-redacted/;

/** The review's words for a recording in which redaction found nothing to replace. */
export function nothingToReplaceText(recording: Recording): string {
  const before = recording.redaction
    ? `this recording was redacted before (${recording.redaction.redactedAt}), so nothing it recognises is left`
    : PSEUDONYM.test(JSON.stringify(recording.frames))
      ? 'this recording holds pseudonyms from an earlier redaction, and nothing it recognises is left'
      : 'no Authorization value, cookie, token, API key, session or task id was found by its name, nor a key, JWT, private key or password by its shape in message text';
  return `Nothing to replace: ${before}. That does not make it clean: a secret with no name or shape Loupe knows is not found, so read it before you publish it.`;
}
