import path from 'node:path';
import { findLoupe } from '../server/tap-discovery';
import { UsageError } from './errors';

/**
 * The control token for a command that drives a running Loupe's API (`tasks`, `scenarios`):
 * `--token`, else `LOUPE_TOKEN`, else the token a Loupe started with `mcp-loupe open` or `npm
 * start` keeps in its data directory's owner-only advert file, when that Loupe is the one at the
 * URL. Its sign-in links are one-time values, so the link it printed is no token to pass here.
 */
export function controlToken(opts: { token?: string; dataDir?: string }, url: URL): string {
  const given = opts.token ?? process.env.LOUPE_TOKEN;
  if (given) return given;
  const advert = findLoupe(path.resolve(opts.dataDir ?? (process.env.LOUPE_DATA_DIR || '.loupe')));
  if (advert && new URL(advert.url).origin === url.origin) return advert.token;
  throw new UsageError(
    'the control API needs a token: pass --token or set LOUPE_TOKEN (printed when the mock starts); ' +
      'for a Loupe started with `mcp-loupe open` or `npm start`, pass its --data-dir (or run from the folder holding its .loupe)',
  );
}
