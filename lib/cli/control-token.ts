import path from 'node:path';
import { readLoupeAdvert } from '../server/tap-discovery';
import { UsageError } from './errors';

/**
 * The control token the user chose for a Loupe they start (`open`, `npm start`, `mock`):
 * `LOUPE_TOKEN` when set and not empty, else undefined (the launch makes a random one). One rule
 * for every command that starts a Loupe, so a CI script can export LOUPE_TOKEN once for the
 * server it starts and for the `tasks` and `scenarios` commands that drive it.
 */
export function chosenLaunchToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.LOUPE_TOKEN || undefined;
}

/**
 * The control token for a command that drives a running Loupe's API (`tasks`, `scenarios`):
 * `--token`, else `LOUPE_TOKEN`, else the token a Loupe started with `mcp-loupe open` or `npm
 * start` keeps in its data directory's owner-only advert file, when that Loupe is the one at the
 * URL. Its sign-in links are one-time values, so the link it printed is no token to pass here.
 */
export function controlToken(opts: { token?: string; dataDir?: string }, url: URL): string {
  const given = opts.token ?? process.env.LOUPE_TOKEN;
  if (given) return given;
  const dir = opts.dataDir ?? (process.env.LOUPE_DATA_DIR || '.loupe');
  const found = readLoupeAdvert(path.resolve(dir));
  if (found?.running && new URL(found.advert.url).origin === url.origin) return found.advert.token;
  // The data directory was found; telling the user to pass it would send them in a circle.
  if (found && !found.running)
    throw new UsageError(
      `the Loupe recorded in ${dir} (pid ${found.advert.pid}, ${found.advert.url}) is not running: ` +
        `start it again (\`mcp-loupe open --data-dir ${dir}\`), or pass --token for another Loupe`,
    );
  if (found)
    throw new UsageError(
      `the Loupe running from ${dir} listens at ${new URL(found.advert.url).origin}, not ${url.origin}: ` +
        'point --url at it, or pass --token for the Loupe at that URL',
    );
  throw new UsageError(
    'the control API needs a token: pass --token or set LOUPE_TOKEN (printed when the mock starts); ' +
      'for a Loupe started with `mcp-loupe open` or `npm start`, pass its --data-dir (or run from the folder holding its .loupe)',
  );
}
