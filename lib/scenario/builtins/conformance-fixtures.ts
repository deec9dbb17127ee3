import { objectSchema } from './schema-helpers';

/** Content and input requests the conformance suite expects from its fixtures, shared by the fixture files. */

/** A 1×1 PNG. */
export const IMG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A WAV with two samples. */
export const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

/** A tool result with one text block. */
export const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

/** A form elicitation asking for one required string. */
export const nameForm = (message: string, prop = 'name') => ({
  method: 'elicitation/create' as const,
  params: { mode: 'form', message, requestedSchema: objectSchema({ [prop]: { type: 'string' } }, { required: [prop] }) },
});

/** A sampling request with one user question. */
export const sampling = (question: string, maxTokens = 100) => ({
  method: 'sampling/createMessage' as const,
  params: { messages: [{ role: 'user', content: { type: 'text', text: question } }], maxTokens },
});

/** A roots request. */
export const roots = { method: 'roots/list' as const, params: {} };
