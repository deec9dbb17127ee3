import path from 'node:path';
import type { Command } from 'commander';
import { SignInLinkSchema } from '../protocol/loupe-api';
import { findLoupe, type LoupeAdvert } from '../server/tap-discovery';
import { openBrowser } from './browser';
import { CliFailure } from './errors';
import { describeNetworkError } from './network';

/**
 * `mcp-loupe link [--data-dir DIR] [--open]`: a new sign-in link for the Loupe running on that
 * data directory. Links work once and for a few minutes, so a browser that lost its session (or a
 * second browser) gets in again without a restart. The running Loupe is found through its advert
 * file (owner-only, lib/server/tap-discovery.ts); its control token mints the link and is never printed.
 */

/** Ask a running Loupe for a one-time link; returns the whole URL, `page` (default `/`) included. */
export async function requestSignInLink(loupe: LoupeAdvert, page = '/'): Promise<string> {
  const endpoint = `${loupe.url}/api/links`;
  let res: Response;
  try {
    res = await fetch(endpoint, { method: 'POST', headers: { Authorization: `Bearer ${loupe.token}` }, redirect: 'error' });
  } catch (e) {
    throw new CliFailure(`cannot reach the running Loupe: ${describeNetworkError(e, endpoint)}`);
  }
  const parsed = SignInLinkSchema.safeParse(await res.json().catch(() => undefined));
  if (!res.ok || !parsed.success) throw new CliFailure(`the running Loupe at ${loupe.url} refused to make a link (HTTP ${res.status})`);
  const target = new URL(page, loupe.url);
  target.searchParams.set('token', parsed.data.link);
  return target.toString();
}

async function runLink(opts: { dataDir?: string; open?: boolean }): Promise<void> {
  const dataDir = path.resolve(opts.dataDir ?? (process.env.LOUPE_DATA_DIR || '.loupe'));
  const loupe = findLoupe(dataDir);
  if (!loupe) throw new CliFailure(`no running Loupe found in ${dataDir}: start one (npx mcp-loupe), or pass the --data-dir it runs with`);
  const url = await requestSignInLink(loupe);
  process.stdout.write(`${url}\n`);
  if (opts.open) openBrowser(url, (line) => process.stderr.write(`mcp-loupe: ${line}\n`));
}

/** Register `link`. */
export function registerLinkCommand(program: Command): void {
  program
    .command('link')
    .description('print a new one-time sign-in link for the running Loupe')
    .option('--data-dir <dir>', 'the data directory of the running Loupe (default: $LOUPE_DATA_DIR or .loupe)')
    .option('--open', 'also open it in the browser')
    .action((opts) => runLink(opts));
}
