import { asRecord } from '../shared/records';
/**
 * Answers a person gives to MRTR / task input requests other than forms: sampling (the user
 * writes the model's reply) and roots (the user lists file:// roots), plus classifying an input
 * request for the panel. Pure.
 */

/** A hand-written CreateMessageResult (text only). */
export type CreateMessageAnswer = { role: 'assistant'; content: { type: 'text'; text: string }; model: string; stopReason: string };
/** A ListRootsResult. */
export type ListRootsAnswer = { roots: { uri: string; name?: string }[] };

/** What kind of prompt an input request needs, with its params. */
export type InputKind =
  | { kind: 'form'; params: Record<string, unknown> }
  | { kind: 'url'; params: { message: string; url: string } }
  | { kind: 'sampling'; params: Record<string, unknown> }
  | { kind: 'roots' }
  | { kind: 'invalid'; reason: string };

/**
 * Classify one input request (an MRTR or task `inputRequests` value). Tolerant on purpose: a
 * form whose schema is partly unusable is still shown (the user can decline), and the lints
 * report what is wrong with it.
 */
export function classifyInputRequest(raw: unknown): InputKind {
  const req = asRecord(raw);
  const params = asRecord(req?.params) ?? {};
  switch (req?.method) {
    case 'elicitation/create':
      if (params.mode === 'url') {
        return typeof params.url === 'string'
          ? { kind: 'url', params: { message: typeof params.message === 'string' ? params.message : '', url: params.url } }
          : { kind: 'invalid', reason: 'URL-mode elicitation without a url' };
      }
      return asRecord(params.requestedSchema) ? { kind: 'form', params } : { kind: 'invalid', reason: 'form-mode elicitation without a requestedSchema' };
    case 'sampling/createMessage':
      return Array.isArray(params.messages) ? { kind: 'sampling', params } : { kind: 'invalid', reason: 'sampling request without messages' };
    case 'roots/list':
      return { kind: 'roots' };
    default:
      return { kind: 'invalid', reason: `unknown input request method ${JSON.stringify(req?.method ?? null)}` };
  }
}

/** Rough token count (about four characters per token) for the maxTokens hint. */
function estimateTokens(text: string): number {
  return Math.ceil(text.trim().length / 4);
}

/** Problems that block sending a hand-written sampling answer, and warnings that do not. */
export function checkSamplingAnswer(text: string, model: string, maxTokens: number | undefined): { errors: Record<string, string>; warnings: string[] } {
  const errors: Record<string, string> = {};
  if (!text.trim()) errors.text = 'Write the reply the model would give';
  if (!model.trim()) errors.model = 'Name the model (any label, e.g. "human")';
  const warnings: string[] = [];
  const tokens = estimateTokens(text);
  if (maxTokens !== undefined && tokens > maxTokens)
    warnings.push(`About ${tokens} tokens, more than maxTokens (${maxTokens}); the client must respect that limit.`);
  return { errors, warnings };
}

/** The `CreateMessageResult` for a hand-written reply. */
export function samplingAnswer(text: string, model: string, stopReason = 'endTurn'): CreateMessageAnswer {
  return { role: 'assistant', content: { type: 'text', text }, model: model.trim(), stopReason };
}

/** Text of a sampling message's content (blocks other than text are summarised). */
export function contentText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) => {
      const block = b && typeof b === 'object' ? (b as Record<string, unknown>) : {};
      if (block.type === 'text' && typeof block.text === 'string') return block.text;
      if (block.type === 'tool_use') return `[tool_use ${String(block.name)}(${JSON.stringify(block.input ?? {})})]`;
      if (block.type === 'tool_result') return `[tool_result for ${String(block.toolUseId)}]`;
      return `[${String(block.type ?? 'unknown')} content]`;
    })
    .join('\n');
}

/** One root as the user edits it. */
export interface RootRow {
  uri: string;
  name: string;
}

/** What is wrong with a root URI, or undefined. Roots are `file://` URIs. */
function rootProblem(uri: string): string | undefined {
  const u = uri.trim();
  if (!u) return 'Enter a file:// URI';
  if (!u.startsWith('file://')) return 'Roots must be file:// URIs';
  try {
    new URL(u);
  } catch {
    return 'Not a valid URI';
  }
  return undefined;
}

/** The `ListRootsResult` for the rows (blank rows are ignored), or the per-row problems. */
export function rootsAnswer(rows: RootRow[]): { ok: true; result: ListRootsAnswer } | { ok: false; errors: Record<number, string> } {
  const errors: Record<number, string> = {};
  const roots: ListRootsAnswer['roots'] = [];
  rows.forEach((row, i) => {
    if (!row.uri.trim() && !row.name.trim()) return;
    const problem = rootProblem(row.uri);
    if (problem) errors[i] = problem;
    else roots.push(row.name.trim() ? { uri: row.uri.trim(), name: row.name.trim() } : { uri: row.uri.trim() });
  });
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, result: { roots } };
}
