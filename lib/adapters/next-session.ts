import { cookies } from 'next/headers';
import { sameToken } from '../server/control-auth';
import { launchToken, TOKEN_COOKIE } from '../server/launch';

/**
 * Whether the browser asking for a page holds this launch's token cookie. Control pages use it
 * to explain how to get one instead of rendering controls that would only answer 401.
 */
export async function hasLaunchCookie(): Promise<boolean> {
  const jar = await cookies();
  return sameToken(jar.get(TOKEN_COOKIE)?.value, launchToken());
}
