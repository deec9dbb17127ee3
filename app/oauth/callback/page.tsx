import { OAuthCallback } from '@/components/auth/OAuthCallback';

/** The tab title. */
export const metadata = { title: 'Authorization · Loupe' };

/** The OAuth redirect URI of the inspector (lib/client/auth/browser-redirect.ts). */
export default function OAuthCallbackPage() {
  return <OAuthCallback />;
}
