import { z } from 'zod';
import { AUTHORIZE_RULE, type Authorizer } from './authorize';
import { passGate, type AuthGate } from './trace';

/**
 * The browser's side of the authorization redirect: the authorize URL opens in a popup, the
 * authorization server sends the person back to Loupe's own static page `/oauth/callback`, and
 * that page hands its URL (code, state, iss) to the inspector by postMessage (to the opener, on
 * this origin only) and by a BroadcastChannel (when the popup lost its opener), then closes. The
 * inspector's lib/client/auth then checks state and iss as the CLI does; nothing is stored.
 */

/** Where the authorization server redirects to, on Loupe's origin. */
export const OAUTH_CALLBACK_PATH = '/oauth/callback';
const CHANNEL = 'loupe-oauth';

const CallbackMessageSchema = z.object({ type: z.literal('loupe-oauth-callback'), url: z.string() });

/** The callback page: pass this page's URL to the inspector that opened the flow, then close. */
export function postOAuthCallback(): void {
  const message = { type: 'loupe-oauth-callback', url: location.href };
  // The origin is pinned: the code never goes to a page of another origin.
  if (window.opener) (window.opener as Window).postMessage(message, location.origin);
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(message);
  channel.close();
  // The code leaves the address bar and the history before anything else can read it.
  history.replaceState(null, '', location.pathname);
  window.close();
}

interface PopupOptions {
  /** Guided mode: waits before the browser is sent to the authorization server. */
  gate?: AuthGate;
  /** The popup was blocked: the person opens the URL with a click (a link in the page). */
  onBlocked(url: string): void;
  /** The callback came (or the flow was abandoned): the link can go. */
  onSettled(): void;
  signal: AbortSignal;
}

/** An Authorizer that sends the person to the authorize URL in a popup and waits for the callback page. */
export function createPopupAuthorizer(o: PopupOptions): Authorizer {
  return async (authorizeUrl, redirectUri) => {
    await passGate(o.gate, { step: 'authorization', rule: AUTHORIZE_RULE, url: authorizeUrl, method: 'GET', headers: {} });
    const channel = new BroadcastChannel(CHANNEL);
    const cleanups: (() => void)[] = [() => channel.close(), () => o.onSettled()];
    try {
      const callback = new Promise<string>((resolve, reject) => {
        const take = (data: unknown) => {
          const m = CallbackMessageSchema.safeParse(data);
          if (m.success && m.data.url.startsWith(redirectUri)) resolve(m.data.url);
        };
        const onMessage = (e: MessageEvent) => {
          if (e.origin === location.origin) take(e.data);
        };
        window.addEventListener('message', onMessage);
        cleanups.push(() => window.removeEventListener('message', onMessage));
        channel.onmessage = (e) => take(e.data);
        const onAbort = () => reject(o.signal.reason instanceof Error ? o.signal.reason : new Error('authorization cancelled'));
        if (o.signal.aborted) onAbort();
        o.signal.addEventListener('abort', onAbort, { once: true });
        cleanups.push(() => o.signal.removeEventListener('abort', onAbort));
      });
      const popup = window.open(authorizeUrl, 'loupe-oauth', 'popup,width=520,height=680');
      if (!popup) o.onBlocked(authorizeUrl);
      return await callback;
    } finally {
      for (const c of cleanups) c();
    }
  };
}
