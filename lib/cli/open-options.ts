import path from 'node:path';
import { isAllowedHost } from '../engine/guards';
import { launchLink, type ConnectionLink, type LaunchConnection } from '../protocol/launch-link';
import { parseStoreKind, type StoreKind } from '../server/open-stores';
import { blockedPortReason } from '../shared/blocked-ports';

/**
 * What `mcp-loupe [open]` was asked for, checked before anything starts: where to listen (flags
 * first, then the environment `npm start` has always read: HOST, PORT, LOUPE_DATA_DIR,
 * LOUPE_STORE, LOUPE_ALLOW_REMOTE, LOUPE_ALLOWED_HOSTS), and the connection the inspector opens with.
 */

/** The command's flags as commander parses them. */
export interface OpenFlags {
  port?: string;
  host?: string;
  allowRemote?: boolean;
  allowedHost?: string[];
  dataDir?: string;
  store?: string;
  open?: boolean;
  url?: string;
  header?: string[];
  era?: string;
  scenario?: string[];
}

/** A mistake on the command line: reported in one line, exit code 2. */
export class OpenUsageError extends Error {}

/** Where to serve and what to open. */
export interface OpenPlan {
  host: string;
  /** undefined: 3000, or the next free port after it. */
  port: number | undefined;
  allowedHosts: string[];
  dataDir: string;
  /** `--store` or LOUPE_STORE (see lib/server/open-stores.ts). */
  store: StoreKind;
  /** The connection of the command line (`--url`, `-- command`), answered by `GET /api/launch`. */
  launch?: LaunchConnection;
  /** What the page URL names (no header values); undefined opens the demo. */
  link?: ConnectionLink;
  scenarioFiles: string[];
}

const ERAS = ['modern', 'legacy', 'auto'] as const;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `"Name: value"` → [name, value]. */
function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon > 0 ? text.slice(0, colon).trim() : '';
  if (!HEADER_NAME.test(name)) throw new OpenUsageError(`--header must look like "Name: value", got "${text}"`);
  return [name, text.slice(colon + 1).trim()];
}

function parsePortText(text: string, source: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n > 65535) throw new OpenUsageError(`${source} must be an integer from 0 to 65535 (0 picks any free port), got "${text}"`);
  // The inspector is a page: on such a port the browser would refuse to open it at all.
  const blocked = blockedPortReason(n);
  if (blocked) throw new OpenUsageError(`${source} ${n}: ${blocked}; pick another`);
  return n;
}

function httpUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OpenUsageError(`--url "${text}" is not a URL (e.g. http://127.0.0.1:3001/mcp)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OpenUsageError(`--url must be http or https, not ${url.protocol}`);
  return text.trim();
}

/** The plan for `flags` and the command after `--`; throws {@link OpenUsageError} on a mistake. */
export function planOpen(flags: OpenFlags, command: readonly string[], env: NodeJS.ProcessEnv): OpenPlan {
  // An empty variable counts as unset, as a shell's `HOST= npx mcp-loupe` means.
  const host = flags.host ?? (env.HOST || '127.0.0.1');
  const allowRemote = flags.allowRemote === true || env.LOUPE_ALLOW_REMOTE === '1';
  if (!isAllowedHost(host) && !allowRemote) {
    throw new OpenUsageError(
      `refusing to listen on ${host}${flags.host === undefined ? ' (from HOST)' : ''}: Loupe serves a mock server, its proxies and a token-gated ` +
        'control API, so it binds loopback only. Pass --allow-remote if you mean it, and name the hosts clients use with --allowed-host.',
    );
  }
  const portText = flags.port ?? env.PORT;
  const port = portText === undefined || portText === '' ? undefined : parsePortText(portText, flags.port === undefined ? 'PORT' : '--port');
  let store: StoreKind;
  try {
    store = flags.store === undefined ? parseStoreKind(env.LOUPE_STORE, 'LOUPE_STORE') : parseStoreKind(flags.store, '--store');
  } catch (e) {
    throw new OpenUsageError((e as Error).message);
  }
  const era = flags.era ?? 'auto';
  const eraChoice = ERAS.find((e) => e === era);
  if (!eraChoice) throw new OpenUsageError(`--era must be modern, legacy or auto, got "${era}"`);
  const headers = (flags.header ?? []).map(parseHeader);
  if (flags.url !== undefined && command.length) throw new OpenUsageError('give either --url or a command after --, not both');
  if (headers.length && flags.url === undefined) throw new OpenUsageError('--header goes with --url (a stdio server gets no HTTP headers)');

  let launch: LaunchConnection | undefined;
  if (flags.url !== undefined) launch = { transport: 'proxy', url: httpUrl(flags.url), era: eraChoice, headers: Object.fromEntries(headers) };
  const [program, ...args] = command;
  if (program !== undefined) launch = { transport: 'stdio', command: program, args, era: eraChoice };
  const link = launch
    ? launchLink(launch)
    : flags.era !== undefined
      ? { transport: 'direct' as const, url: '/mcp', era: eraChoice, headerNames: [] }
      : undefined;
  return {
    host,
    port,
    allowedHosts: [...(flags.allowedHost ?? []), ...(env.LOUPE_ALLOWED_HOSTS ?? '').split(',')].map((h) => h.trim()).filter(Boolean),
    dataDir: path.resolve(flags.dataDir ?? (env.LOUPE_DATA_DIR || '.loupe')),
    store,
    launch,
    link,
    scenarioFiles: flags.scenario ?? [],
  };
}
