'use client';

import { useEffect, useState } from 'react';
import { postOAuthCallback } from '@/lib/client/auth/browser-redirect';

/**
 * The redirect URI's page: hands the authorization response (code, state, iss) to the inspector
 * that opened the flow, on this origin only, and closes. The inspector checks it; this page
 * checks nothing and keeps nothing.
 */
export function OAuthCallback() {
  const [sent, setSent] = useState(false);
  useEffect(() => {
    postOAuthCallback();
    setSent(true);
  }, []);
  return (
    <main className="p-6 text-sm" data-testid="oauth-callback">
      <h1 className="text-lg font-semibold">Loupe · authorization</h1>
      <p className="mt-2 text-muted">{sent ? 'The answer went back to the inspector: you can close this window.' : 'Passing the answer to the inspector…'}</p>
    </main>
  );
}
