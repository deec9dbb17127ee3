import { splitCommandLine } from '../client/stdio-proxy-transport';
import { sameTarget, type ConnectionLink, type LaunchConnection } from '../protocol/launch-link';
import type { ConnectionConfig, HeaderRow } from './connection-slice';

/**
 * Between the connection bar's config and the page URL (lib/protocol/launch-link.ts): which link
 * names a config (the header values left out), and which config a link asks for, with the header
 * values of the launch when the link points where the launch does.
 */

/** The demo mock on this origin, reached directly: the home page's connection when its URL names none. */
export const DEMO_CONNECTION: Partial<ConnectionConfig> = { url: '/mcp', mode: 'auto', era: 'auto' };

const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/** A command line that {@link splitCommandLine} splits back into `argv`, word for word. */
export function joinCommandLine(argv: readonly string[]): string {
  return argv.map((w) => (PLAIN_WORD.test(w) ? w : `"${w.replace(/["\\]/g, '\\$&')}"`)).join(' ');
}

/** Whether a config is the home page's default: the demo (auto or direct: same origin either way), auto era, nothing extra. */
function isDemo(config: ConnectionConfig): boolean {
  const sends = config.bearer.trim() || config.headers.some((h) => h.enabled && h.name.trim());
  return config.url === DEMO_CONNECTION.url && (config.mode === 'auto' || config.mode === 'direct') && config.era === 'auto' && config.apps !== false && !sends;
}

/** The link that names `config` in the page URL; undefined for the demo (a bare `/`) or a command line that does not split. */
export function linkOfConfig(config: ConnectionConfig): ConnectionLink | undefined {
  if (isDemo(config)) return undefined;
  const apps = config.apps === false ? { apps: false as const } : {};
  if (config.mode === 'stdio') {
    let argv: string[];
    try {
      argv = splitCommandLine(config.url);
    } catch {
      return undefined;
    }
    const [command, ...args] = argv;
    return command ? { transport: 'stdio', command, args, era: config.era, ...apps } : undefined;
  }
  // Disabled rows are named too: a bookmark then still shows which headers to fill in.
  const names = config.headers.filter((h) => h.name.trim()).map((h) => h.name.trim());
  if (config.bearer.trim() && !names.some((n) => n.toLowerCase() === 'authorization')) names.push('Authorization');
  return { transport: config.mode, url: config.url, era: config.era, headerNames: names, ...apps };
}

/** What connecting to a link means: the config, and whether the launch itself named that target. */
interface LinkedConfig {
  config: ConnectionConfig;
  fromLaunch: boolean;
}

/**
 * The config a link asks for. Header values come only from the launch, and only when the link
 * points where the launch does; a header the link names without a known value becomes a disabled
 * row with an empty value, for the user to fill in.
 */
export function configOfLink(link: ConnectionLink, launch: LaunchConnection | null | undefined): LinkedConfig {
  const fromLaunch = !!launch && sameTarget(link, launch);
  const base = { bearer: '', era: link.era, apps: link.apps !== false };
  if (link.transport === 'stdio') {
    return { config: { ...base, url: joinCommandLine([link.command, ...link.args]), mode: 'stdio', headers: [] }, fromLaunch };
  }
  const known = fromLaunch && launch?.transport !== 'stdio' ? (launch?.headers ?? {}) : {};
  const headers: HeaderRow[] = Object.entries(known).map(([name, value]) => ({ name, value, enabled: true }));
  for (const name of link.headerNames) {
    if (!headers.some((h) => h.name.toLowerCase() === name.toLowerCase())) headers.push({ name, value: '', enabled: false });
  }
  return { config: { ...base, url: link.url, mode: link.transport, headers }, fromLaunch };
}
