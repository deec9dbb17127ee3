import { z } from 'zod';

/**
 * The connection a page URL names, and the one a launch of `mcp-loupe` asked for on its command
 * line. The home page's query carries where the inspector connects, so a reload or a bookmark
 * connects again; it never carries a secret: header values stay with the launch that was given
 * them (`GET /api/launch`, token-gated), and the URL names only the headers' keys.
 *
 *   /?transport=proxy&url=https%3A%2F%2Fhost%2Fmcp&era=auto&header=Authorization
 *   /?transport=direct&url=%2Fmcp%2Fmy-scenario&era=modern
 *   /?transport=auto&url=http%3A%2F%2F127.0.0.1%3A3001%2Fmcp&tab=resources
 *   /?transport=stdio&command=node&arg=server.js&arg=--flag&era=auto
 *
 * `arg` repeats once per argument, in order, so an argument with spaces or quotes survives as it
 * is; `apps=0` when the MCP Apps extension is not declared. `tab` (the side panel shown) is the
 * view's, not the connection's: {@link linkTab} reads it, and the inspector keeps it in step.
 */

/** `GET /api/launch`: the launch's connection, with the header values the URL leaves out. */
export const LAUNCH_PATH = '/api/launch';

const EraChoiceSchema = z.enum(['modern', 'legacy', 'auto']);
/** The era a link asks for (`auto` probes server/discover, then falls back to initialize). */
type EraChoice = z.infer<typeof EraChoiceSchema>;

/** A connection as the page URL names it: where, how, and the names (never the values) of its headers. */
export type ConnectionLink =
  | { transport: 'auto' | 'direct' | 'proxy'; url: string; era: EraChoice; headerNames: string[]; apps?: false }
  | { transport: 'stdio'; command: string; args: string[]; era: EraChoice; apps?: false };

/** The connection a launch was given on its command line; HTTP ones carry their header values. */
const LaunchConnectionSchema = z.discriminatedUnion('transport', [
  z.object({ transport: z.enum(['direct', 'proxy']), url: z.string().min(1), era: EraChoiceSchema, headers: z.record(z.string(), z.string()) }),
  z.object({ transport: z.literal('stdio'), command: z.string().min(1), args: z.array(z.string()), era: EraChoiceSchema }),
]);
export type LaunchConnection = z.infer<typeof LaunchConnectionSchema>;

/** Answer of `GET /api/launch`: `null` when the launch named no connection. */
export const LaunchSchema = z.object({ connection: LaunchConnectionSchema.nullable() });
export type Launch = z.infer<typeof LaunchSchema>;

/** The query (without `?`) that names `link`. */
export function linkQuery(link: ConnectionLink): string {
  const q = new URLSearchParams({ transport: link.transport });
  if (link.transport === 'stdio') {
    q.set('command', link.command);
    for (const a of link.args) q.append('arg', a);
  } else {
    q.set('url', link.url);
  }
  q.set('era', link.era);
  if (link.transport !== 'stdio') for (const name of link.headerNames) q.append('header', name);
  if (link.apps === false) q.set('apps', '0');
  return q.toString();
}

/** The connection a page query names, or undefined when it names none (or names it badly). */
export function parseLinkQuery(search: string): ConnectionLink | undefined {
  const q = new URLSearchParams(search);
  const era = EraChoiceSchema.safeParse(q.get('era') ?? 'auto');
  if (!era.success) return undefined;
  const apps = q.get('apps') === '0' ? { apps: false as const } : {};
  const transport = q.get('transport');
  if (transport === 'stdio') {
    const command = q.get('command');
    return command ? { transport, command, args: q.getAll('arg'), era: era.data, ...apps } : undefined;
  }
  if (transport !== 'auto' && transport !== 'direct' && transport !== 'proxy') return undefined;
  const url = q.get('url');
  if (!url) return undefined;
  const headerNames = q.getAll('header').filter((h) => h.trim());
  return { transport, url, era: era.data, headerNames, ...apps };
}

/** A launch's connection as its page URL names it (the header values left out). */
export function launchLink(launch: LaunchConnection): ConnectionLink {
  if (launch.transport === 'stdio') return launch;
  return { transport: launch.transport, url: launch.url, era: launch.era, headerNames: Object.keys(launch.headers) };
}

/** Whether a link points where the launch does (same transport and URL, or same argv). */
export function sameTarget(link: ConnectionLink, launch: LaunchConnection): boolean {
  if (link.transport === 'stdio' || launch.transport === 'stdio') {
    if (link.transport !== 'stdio' || launch.transport !== 'stdio') return false;
    return link.command === launch.command && link.args.length === launch.args.length && link.args.every((a, i) => a === launch.args[i]);
  }
  return link.transport === launch.transport && link.url === launch.url;
}

/** The side panel a page query names (`tab=`), if any: a short word, nothing else. */
export function linkTab(search: string): string | undefined {
  const tab = new URLSearchParams(search).get('tab');
  return tab && /^[a-z][a-z-]{0,31}$/.test(tab) ? tab : undefined;
}
