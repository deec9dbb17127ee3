import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { TokenStore } from '../client/auth/stored';
import { parseJson } from '../shared/json';

/**
 * `--store-tokens FILE`: the OAuth state kept between runs in a file only its owner can read
 * (0600). Each save writes a new file beside it and renames it over the old one, so a crash or
 * a second run reading at the same moment sees the old state or the new, never half of one.
 * The file holds secrets (tokens, a client secret) and is never printed.
 */

/** A token store backed by `file`. */
export function createTokenFile(file: string): TokenStore {
  const target = path.resolve(file);
  return {
    async load() {
      let text: string;
      try {
        text = await fs.promises.readFile(target, 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
      const parsed = parseJson(text);
      return parsed.ok ? parsed.value : undefined;
    },
    async save(state) {
      const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        await fs.promises.writeFile(temp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
        await fs.promises.rename(temp, target);
      } catch (e) {
        await fs.promises.rm(temp, { force: true }).catch(() => {});
        throw e;
      }
    },
  };
}
