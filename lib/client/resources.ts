import { z } from 'zod';
import type { RequestOptions } from './connection-types';
import { listPage, type Requester } from './list-page';

/**
 * Resources as the inspector browses them: list pages of resources and templates, expansion of
 * a template's `{variables}` into a URI to read, `resources/read`, and argument completion
 * (`completion/complete`) for templates and prompts. Every request goes through the session's
 * tracked `request`, so it shows on the timeline beside the tool calls.
 */

const ListedResourceSchema = z.looseObject({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
});
export type ListedResource = z.infer<typeof ListedResourceSchema>;

const ResourceTemplateSchema = z.looseObject({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

/** One page of resources/list. */
export const listResources = (request: Requester, cursor?: string, options?: RequestOptions) =>
  listPage(request, 'resources/list', 'resources', ListedResourceSchema, cursor, options);

/** One page of resources/templates/list. */
export const listResourceTemplates = (request: Requester, cursor?: string, options?: RequestOptions) =>
  listPage(request, 'resources/templates/list', 'resourceTemplates', ResourceTemplateSchema, cursor, options);

/** resources/read of one URI. */
export const readResource = (request: Requester, uri: string, options?: RequestOptions) => request('resources/read', { uri }, options);

const EXPRESSION = /\{([+#./;?&]?)([^}]+)\}/g;

/** The variable names of a URI template (RFC 6570), in order, each once. */
export function templateVariables(uriTemplate: string): string[] {
  const names: string[] = [];
  for (const m of uriTemplate.matchAll(EXPRESSION)) {
    for (const part of (m[2] ?? '').split(',')) {
      const name = part.replace(/[*]$|:\d+$/, '').trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/**
 * Expand a URI template with string values: simple `{x}` percent-encodes everything outside the
 * unreserved set; `{+x}` and `{#x}` keep reserved characters (so a path stays a path); the
 * other operators add their prefix and separators. Missing values expand to nothing.
 */
export function expandTemplate(uriTemplate: string, values: Record<string, string>): string {
  return uriTemplate.replace(EXPRESSION, (_all, op: string, list: string) => {
    const reserved = op === '+' || op === '#';
    const enc = (v: string) => (reserved ? encodeURI(v) : encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`));
    const parts = list
      .split(',')
      .map((p) => p.replace(/[*]$|:\d+$/, '').trim())
      .filter((name) => values[name] !== undefined && values[name] !== '')
      .map((name) => {
        const value = enc(values[name] ?? '');
        return op === ';' || op === '?' || op === '&' ? `${name}=${value}` : value;
      });
    if (parts.length === 0) return '';
    const prefix = op === '+' ? '' : op;
    const sep = op === '' || op === '+' || op === '#' ? ',' : op === '?' ? '&' : op;
    return prefix + parts.join(sep);
  });
}

/** What completion/complete completes: a prompt's argument or a resource template's variable. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

const CompletionResultSchema = z.looseObject({
  completion: z.looseObject({ values: z.array(z.string()), total: z.number().optional(), hasMore: z.boolean().optional() }),
});

interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
  /** Why there are no suggestions, when the request failed. */
  problem?: string;
}

/**
 * completion/complete for one argument, with the values of the others as context. The
 * server's values are capped at 100 by the spec; more than that is cut here too.
 */
export async function completeArgument(
  request: Requester,
  ref: CompletionRef,
  argument: { name: string; value: string },
  others: Record<string, string> = {},
  options?: RequestOptions,
): Promise<Completion> {
  const context = Object.fromEntries(Object.entries(others).filter(([k, v]) => k !== argument.name && v !== ''));
  const params: Record<string, unknown> = { ref, argument, ...(Object.keys(context).length ? { context: { arguments: context } } : {}) };
  const out = await request('completion/complete', params, options);
  if (out.type === 'error') return { values: [], problem: `${out.error.code} ${out.error.message}` };
  if (out.type !== 'complete') return { values: [], problem: out.type === 'failure' ? out.message : out.type };
  const parsed = CompletionResultSchema.safeParse(out.result);
  if (!parsed.success) return { values: [], problem: 'completion/complete answered without completion.values' };
  const c = parsed.data.completion;
  return { values: c.values.slice(0, 100), ...(c.total !== undefined ? { total: c.total } : {}), ...(c.hasMore !== undefined ? { hasMore: c.hasMore } : {}) };
}
