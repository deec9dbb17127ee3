import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isAllowedHost } from '../engine/guards';
import { writeAtomic } from './write-atomic';

/**
 * How a tap finds the running Loupe: the app server writes where it listens and its launch token
 * to a file in its data directory, readable by the owner only (the token already grants that
 * user's browser everything; the file gives it to that user's own processes); a tap started with
 * the same data directory reads it. A file whose process is gone is ignored.
 *
 * The default data directory is `.loupe` in the working directory, so a repository can ship one:
 * a planted advert naming `https://elsewhere` (and pid 1, which always runs) would have a tap
 * there push every frame, Authorization headers unredacted, to that URL. So an advert counts only
 * when it names a loopback http URL and is a file Loupe wrote: owned by this user and readable by
 * no one else (Loupe writes it 0600; a checkout or an archive makes it 0644).
 */

const FILE = 'loupe-server.json';

const AdvertSchema = z.object({ url: z.string().url(), token: z.string().min(1), pid: z.number().int() });
/** Where a running Loupe listens and how to authenticate to it. */
export type LoupeAdvert = z.infer<typeof AdvertSchema>;

/** Whether an advert file can be Loupe's own (see above): a loopback http URL, owner-only, this user's. */
function writtenByLoupe(file: string, url: string): boolean {
  const target = new URL(url);
  if ((target.protocol !== 'http:' && target.protocol !== 'https:') || !isAllowedHost(target.host)) return false;
  if (process.platform === 'win32') return true;
  try {
    const stat = fs.statSync(file);
    return (stat.mode & 0o077) === 0 && stat.uid === process.getuid?.();
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The outcome of advertising: how to take the advert back, and who holds it when another Loupe already did. */
interface Advertised {
  remove: () => void;
  heldBy?: LoupeAdvert;
}

/**
 * Write this process's advert, unless a running Loupe already advertises this data directory: a
 * second Loupe on the same directory must not take the first one's place, or the first becomes
 * unreachable by `mcp-loupe link` and `tasks` once the second exits and removes its own advert.
 */
export function advertiseLoupe(dataDir: string, advert: { url: string; token: string }): Advertised {
  const none = { remove: () => {} };
  const file = path.join(dataDir, FILE);
  const mine = JSON.stringify({ ...advert, pid: process.pid });
  // A Loupe on memory stores never creates its data directory; it is findable only if one exists.
  if (!fs.existsSync(dataDir)) return none;
  const holder = findLoupe(dataDir);
  if (holder && holder.pid !== process.pid) return { ...none, heldBy: holder };
  try {
    writeAtomic(file, mine);
  } catch {
    // A read-only data directory only means taps cannot find this Loupe.
    return none;
  }
  return {
    remove: () => {
      try {
        if (fs.readFileSync(file, 'utf8') === mine) fs.unlinkSync(file);
      } catch {
        /* already gone */
      }
    },
  };
}

/** The Loupe advertised in a data directory, if its process still runs. */
export function findLoupe(dataDir: string): LoupeAdvert | undefined {
  const found = readLoupeAdvert(dataDir);
  return found?.running ? found.advert : undefined;
}

/** The advert of a data directory, and whether its process runs (a killed Loupe leaves it behind). */
export function readLoupeAdvert(dataDir: string): { advert: LoupeAdvert; running: boolean } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dataDir, FILE), 'utf8');
  } catch {
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = AdvertSchema.safeParse(data);
  if (!parsed.success || !writtenByLoupe(path.join(dataDir, FILE), parsed.data.url)) return undefined;
  return { advert: parsed.data, running: alive(parsed.data.pid) };
}
