import { LOUPE_REQUEST_HEADER } from '../protocol/loupe-api';

/**
 * The request key of this browser's Loupe session. The token exchange puts it in the fragment of
 * the page it redirects to (never sent to any server); the page moves it into localStorage, which
 * belongs to this origin alone (port included), and sends it in `X-Loupe-Request` with every call
 * to Loupe's API. The HttpOnly cookie is shared with every port of the host; this key is not.
 */

const STORAGE_ITEM = 'loupe-api-key';
/** The fragment parameter the server's page gate writes (lib/server/launch-access.ts). */
const FRAGMENT_PARAM = 'loupe-key';

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** Move a key from the address bar's fragment into storage, leaving any other fragment parameters. */
function adoptApiKey(): void {
  if (typeof location === 'undefined' || typeof history === 'undefined' || !location.hash) return;
  // Split by hand: re-encoding the other parameters (a share link's `rec=`) could change them.
  const parts = location.hash.slice(1).split('&');
  const mine = parts.find((p) => p.startsWith(`${FRAGMENT_PARAM}=`));
  if (!mine) return;
  const key = mine.slice(FRAGMENT_PARAM.length + 1);
  if (/^[\w-]+$/.test(key)) storage()?.setItem(STORAGE_ITEM, key);
  const rest = parts.filter((p) => p !== mine).join('&');
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
}

/**
 * {@link adoptApiKey} as a classic inline script for the pages' <head>: it runs while the page is
 * parsed, before any other script, so the key is stored even if the person (or a test) moves on
 * before the page hydrates, and the address bar never shows it to anything that runs later.
 */
export const ADOPT_API_KEY_SCRIPT = `(function(){try{var h=location.hash;if(!h)return;var p=h.slice(1).split('&');var m=null;for(var i=0;i<p.length;i++)if(p[i].indexOf('${FRAGMENT_PARAM}=')===0)m=p[i];if(!m)return;var k=m.slice(${FRAGMENT_PARAM.length + 1});if(/^[\\w-]+$/.test(k))localStorage.setItem('${STORAGE_ITEM}',k);var r=p.filter(function(x){return x!==m}).join('&');history.replaceState(history.state,'',location.pathname+location.search+(r?'#'+r:''))}catch(e){}})()`;

/** This session's request key, or `1` where there is none (the CLI, which sends the token itself). */
export function apiKey(): string {
  adoptApiKey();
  return storage()?.getItem(STORAGE_ITEM) ?? '1';
}

/** The header every call to Loupe's own API carries. */
export function loupeApiHeaders(): Record<string, string> {
  return { [LOUPE_REQUEST_HEADER]: apiKey() };
}
