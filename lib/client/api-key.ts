import { LOUPE_REQUEST_HEADER } from '../protocol/loupe-api';

/**
 * The request key of this browser's Loupe session. The token exchange puts it in the fragment of
 * the page it redirects to (never sent to any server); the page moves it into localStorage, which
 * belongs to this origin alone (port included), and sends it in `X-Loupe-Request` with every call
 * to Loupe's API. The HttpOnly cookie is shared with every port of the host; this key is not.
 *
 * Any page can send the browser to `/#loupe-key=garbage`. A key from the fragment therefore never
 * replaces a stored one outright: it waits as a candidate (this tab's sessionStorage) and becomes
 * the key only once the server has accepted it ({@link loupeFetch}); a stored key that still
 * works discards the candidate. A fresh browser, with nothing stored, takes the key at once.
 */

const STORAGE_ITEM = 'loupe-api-key';
const CANDIDATE_ITEM = 'loupe-api-key-candidate';
/** The fragment parameter the server's page gate writes (lib/server/launch-access.ts). */
const FRAGMENT_PARAM = 'loupe-key';

function store(kind: 'local' | 'session'): Storage | undefined {
  try {
    const s = kind === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
    return s ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the key out of the fragment while the page is parsed (a classic inline script in the
 * pages' <head>, before any other script), so the address bar never shows it to anything that
 * runs later. Split by hand: re-encoding the other parameters (a share link's `rec=`) could change them.
 */
export const ADOPT_API_KEY_SCRIPT = `(function(){try{var h=location.hash;if(!h)return;var p=h.slice(1).split('&');var m=null;for(var i=0;i<p.length;i++)if(p[i].indexOf('${FRAGMENT_PARAM}=')===0)m=p[i];if(!m)return;var k=m.slice(${FRAGMENT_PARAM.length + 1});if(/^[\\w-]+$/.test(k)){if(localStorage.getItem('${STORAGE_ITEM}'))sessionStorage.setItem('${CANDIDATE_ITEM}',k);else localStorage.setItem('${STORAGE_ITEM}',k)}var r=p.filter(function(x){return x!==m}).join('&');history.replaceState(history.state,'',location.pathname+location.search+(r?'#'+r:''))}catch(e){}})()`;

/** This session's request key, or `1` where there is none (the CLI, which sends the token itself). */
export function apiKey(): string {
  return store('local')?.getItem(STORAGE_ITEM) ?? store('session')?.getItem(CANDIDATE_ITEM) ?? '1';
}

type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Whether a body can be sent twice (a stream cannot). */
function replayable(body: RequestInit['body']): boolean {
  return body === undefined || body === null || typeof body === 'string' || body instanceof URLSearchParams || body instanceof Blob;
}

/**
 * Every call of a page (or of the CLI, through `send`) to Loupe's own API: the request key, the
 * session cookie of this origin, and no redirects followed (a redirect toward the API is never
 * one Loupe sends). A waiting candidate key is tried when the stored key is refused (a new link
 * opened in a browser that had an older session), and kept only if the server accepts it.
 */
export async function loupeFetch(input: string, init: RequestInit = {}, send: FetchLike = (i, o) => globalThis.fetch(i, o)): Promise<Response> {
  const local = store('local');
  const session = store('session');
  const stored = local?.getItem(STORAGE_ITEM) ?? undefined;
  const candidate = session?.getItem(CANDIDATE_ITEM) ?? undefined;
  const attempt = (key: string) => {
    const headers = new Headers(init.headers);
    headers.set(LOUPE_REQUEST_HEADER, key);
    return send(input, { credentials: 'same-origin', redirect: 'error', ...init, headers });
  };
  const adopt = (key: string) => {
    local?.setItem(STORAGE_ITEM, key);
    session?.removeItem(CANDIDATE_ITEM);
  };
  const first = await attempt(stored ?? candidate ?? '1');
  if (!candidate || candidate === stored) return first;
  if (stored === undefined) {
    if (first.status !== 401) adopt(candidate);
    return first;
  }
  if (first.status !== 401) {
    // The stored key works: the candidate is not this session's.
    session?.removeItem(CANDIDATE_ITEM);
    return first;
  }
  if (!replayable(init.body)) return first;
  const second = await attempt(candidate);
  if (second.status !== 401) adopt(candidate);
  return second;
}
