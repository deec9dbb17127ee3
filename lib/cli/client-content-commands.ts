import type { Command } from 'commander';
import { z } from 'zod';
import { ownWords, type ConnectionFlags } from './client-args';
import { connectionOptions, runClientAction, type ClientContext } from './client-context';
import { formatToolResult, out } from './client-output';
import { UsageError } from './errors';

/**
 * The headless client's resources, prompts and completions: `resources`, `templates`, `prompts`
 * (each list follows `nextCursor` to the end, or shows one page with --cursor), `read URI`,
 * `get-prompt NAME k=v…` and `complete`. Exit codes and --json as for the other client commands.
 */

const PageSchema = z.looseObject({ nextCursor: z.string().optional() });
const ItemsSchema = z.array(z.looseObject({ name: z.string().optional(), title: z.string().optional(), description: z.string().optional() }));
const ContentsSchema = z.looseObject({
  contents: z.array(z.looseObject({ uri: z.string(), mimeType: z.string().optional(), text: z.string().optional(), blob: z.string().optional() })),
});
const PromptSchema = z.looseObject({
  description: z.string().optional(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.looseObject({ type: z.string() }) })),
});
const CompletionSchema = z.looseObject({
  completion: z.looseObject({ values: z.array(z.string()), total: z.number().optional(), hasMore: z.boolean().optional() }),
});

interface PageFlags extends ConnectionFlags {
  cursor?: string;
}

/** Most pages followed before stopping (a server whose cursor never ends must not loop forever). */
const MAX_PAGES = 100;

/** List `key` of a paginated method: every page, or the one at --cursor. */
async function listPaged(ctx: ClientContext, method: string, key: string, line: (item: Record<string, unknown>) => string, flags: PageFlags): Promise<number> {
  const items: Record<string, unknown>[] = [];
  let cursor = flags.cursor;
  let next: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await ctx.session.request(method, cursor ? { cursor } : undefined);
    if (r.type !== 'complete') return ctx.fail(ctx.errorOf(r));
    const list = ItemsSchema.safeParse(r.result[key]);
    if (!list.success) return ctx.fail({ code: 'invalid-response', message: `Invalid response: ${method} has no ${key} array` });
    items.push(...list.data);
    next = PageSchema.safeParse(r.result).data?.nextCursor;
    // --cursor asks for one page; without it, the whole list.
    if (flags.cursor !== undefined || !next) break;
    cursor = next;
  }
  const more = flags.cursor !== undefined ? next : undefined;
  if (ctx.flags.json) ctx.emit({ [key]: items, ...(more ? { nextCursor: more } : {}) });
  else {
    out(items.map(line).join('\n') || `(no ${key})`);
    if (more) out(`More: --cursor ${more}`);
  }
  return 0;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const described = (item: Record<string, unknown>) => (item.description ? `  ${str(item.description)}` : '');

async function read(ctx: ClientContext, uri: string): Promise<number> {
  const r = await ctx.session.request('resources/read', { uri });
  if (r.type !== 'complete') return ctx.fail(ctx.errorOf(r));
  const parsed = ContentsSchema.safeParse(r.result);
  if (!parsed.success) return ctx.fail({ code: 'invalid-response', message: 'Invalid response: resources/read has no contents array' });
  if (ctx.flags.json) ctx.emit(r.result);
  else for (const c of parsed.data.contents) out(c.text !== undefined ? c.text : `[${c.mimeType ?? 'binary'} ${c.uri}: ${(c.blob ?? '').length} base64 chars]`);
  return 0;
}

/** `k=v` words as string arguments (prompt arguments and completion context are strings). */
function stringArgs(words: string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (const w of words) {
    const i = w.indexOf('=');
    if (i <= 0) throw new UsageError(`argument "${w}" must look like key=value`);
    args[w.slice(0, i)] = w.slice(i + 1);
  }
  return args;
}

async function getPrompt(ctx: ClientContext, name: string, words: string[]): Promise<number> {
  const args = stringArgs(words);
  const r = await ctx.session.request('prompts/get', { name, ...(Object.keys(args).length ? { arguments: args } : {}) });
  if (r.type !== 'complete') return ctx.fail(ctx.errorOf(r));
  const parsed = PromptSchema.safeParse(r.result);
  if (!parsed.success) return ctx.fail({ code: 'invalid-response', message: 'Invalid response: prompts/get has no messages array' });
  if (ctx.flags.json) ctx.emit(r.result);
  else {
    if (parsed.data.description) out(parsed.data.description);
    for (const m of parsed.data.messages) out(`${m.role}: ${formatToolResult({ content: [m.content] })}`);
  }
  return 0;
}

interface CompleteFlags extends ConnectionFlags {
  prompt?: string;
  template?: string;
  arg: string;
  context?: string[];
}

async function complete(ctx: ClientContext, flags: CompleteFlags): Promise<number> {
  if (!!flags.prompt === !!flags.template) throw new UsageError('complete needs exactly one of --prompt NAME or --template URI-TEMPLATE');
  const [name, ...rest] = flags.arg.split('=');
  if (!name) throw new UsageError(`--arg "${flags.arg}" must look like name=partial-value`);
  const context = stringArgs(flags.context ?? []);
  const r = await ctx.session.request('completion/complete', {
    ref: flags.prompt ? { type: 'ref/prompt', name: flags.prompt } : { type: 'ref/resource', uri: flags.template },
    argument: { name, value: rest.join('=') },
    ...(Object.keys(context).length ? { context: { arguments: context } } : {}),
  });
  if (r.type !== 'complete') return ctx.fail(ctx.errorOf(r));
  const parsed = CompletionSchema.safeParse(r.result);
  if (!parsed.success) return ctx.fail({ code: 'invalid-response', message: 'Invalid response: completion/complete has no completion.values' });
  const c = parsed.data.completion;
  if (ctx.flags.json) ctx.emit(r.result);
  else {
    out(c.values.join('\n') || '(no completions)');
    if (c.hasMore || c.total !== undefined)
      out(`(${c.values.length} shown${c.total !== undefined ? ` of ${c.total}` : ''}${c.hasMore ? ', more available' : ''})`);
  }
  return 0;
}

/** Register `resources`, `templates`, `read`, `prompts`, `get-prompt` and `complete`. */
export function registerClientContentCommands(program: Command): void {
  const paged = (name: string, description: string, method: string, key: string, line: (i: Record<string, unknown>) => string) =>
    connectionOptions(program.command(name).description(description).option('--cursor <c>', 'show the one page at this cursor (default: every page)')).action(
      (f: PageFlags) => runClientAction(f, (ctx) => listPaged(ctx, method, key, line, f)),
    );
  paged(
    'resources',
    'resources/list (every page, or one with --cursor)',
    'resources/list',
    'resources',
    (r) => `${str(r.uri)}  ${str(r.name)}${r.mimeType ? `  (${str(r.mimeType)})` : ''}`,
  );
  paged(
    'templates',
    'resources/templates/list: URI templates',
    'resources/templates/list',
    'resourceTemplates',
    (t) => `${str(t.uriTemplate)}  ${str(t.name)}${described(t)}`,
  );
  paged('prompts', "prompts/list, with each prompt's arguments", 'prompts/list', 'prompts', (p) => {
    const args = Array.isArray(p.arguments) ? (p.arguments as { name?: string; required?: boolean }[]).map((a) => `${a.name}${a.required ? '' : '?'}`) : [];
    return `${str(p.name)}${args.length ? ` (${args.join(', ')})` : ''}${described(p)}`;
  });
  connectionOptions(program.command('read').description('resources/read URI: text contents, binary ones summarised').argument('<uri>')).action(
    (uri: string, f: ConnectionFlags) => runClientAction(f, (ctx) => read(ctx, uri)),
  );
  connectionOptions(
    program
      .command('get-prompt')
      .description('prompts/get NAME with key=value arguments')
      .argument('<name>')
      .argument('[args...]', 'prompt arguments as key=value'),
  ).action((name: string, words: string[], f: ConnectionFlags) => runClientAction(f, (ctx) => getPrompt(ctx, name, ownWords(words))));
  connectionOptions(
    program
      .command('complete')
      .description('completion/complete for a prompt or resource-template argument')
      .option('--prompt <name>', 'complete an argument of this prompt')
      .option('--template <uri-template>', 'complete a variable of this resource template')
      .requiredOption('--arg <name=value>', 'the argument and what has been typed so far, e.g. city=Par')
      .option('--context <k=v...>', 'values of arguments already chosen'),
  ).action((f: CompleteFlags) => runClientAction(f, (ctx) => complete(ctx, f)));
}
