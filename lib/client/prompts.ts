import { z } from 'zod';
import type { RequestOptions } from './connection-types';
import { listPage, type Requester } from './list-page';
import type { RequestOutcome } from './results';

/** Prompts as the inspector browses them: list pages, and prompts/get with the messages parsed. */

const PromptArgumentSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});

const ListedPromptSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(PromptArgumentSchema).optional(),
});
export type ListedPrompt = z.infer<typeof ListedPromptSchema>;

const PromptMessageSchema = z.looseObject({ role: z.string(), content: z.unknown() });
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/** One page of prompts/list. */
export const listPrompts = (request: Requester, cursor?: string, options?: RequestOptions) =>
  listPage(request, 'prompts/list', 'prompts', ListedPromptSchema, cursor, options);

/** What prompts/get gave: its messages, or the outcome that is not a prompt. */
export type PromptResult =
  | { ok: true; description?: string; messages: PromptMessage[]; outcome: RequestOutcome }
  | { ok: false; outcome: RequestOutcome; problem?: string };

/** The arguments a user left empty are not sent; a required one is refused before sending. */
export function promptArguments(prompt: ListedPrompt, values: Record<string, string>): { args: Record<string, string>; missing: string[] } {
  const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  const missing = (prompt.arguments ?? []).filter((a) => a.required && !(a.name in args)).map((a) => a.name);
  return { args, missing };
}

/** prompts/get with its arguments (string values, as the spec types them). */
export async function getPrompt(request: Requester, name: string, args: Record<string, string>, options?: RequestOptions): Promise<PromptResult> {
  const outcome = await request('prompts/get', { name, arguments: args }, options);
  if (outcome.type !== 'complete') return { ok: false, outcome };
  const parsed = z.looseObject({ description: z.string().optional(), messages: z.array(PromptMessageSchema) }).safeParse(outcome.result);
  if (!parsed.success) return { ok: false, outcome, problem: 'prompts/get answered without a messages array of {role, content}' };
  return { ok: true, messages: parsed.data.messages, outcome, ...(parsed.data.description ? { description: parsed.data.description } : {}) };
}
