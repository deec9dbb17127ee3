'use client';

import { useEffect, useState } from 'react';
import { createControlClient } from '@/lib/client/control-client';

/** Whether this browser holds the launch-token cookie: still asking, yes, or no. */
type SessionState = 'checking' | 'authenticated' | 'missing';

/**
 * Asks the control API (`GET /api/session`) once per mount. The pages are static files, so no
 * server renders them knowing the cookie (it is HttpOnly, so script cannot read it either).
 * Anything but a yes (a 403, Loupe unreachable) reads as no: the page explains the token.
 */
export function useSession(): SessionState {
  const [state, setState] = useState<SessionState>('checking');
  useEffect(() => {
    let cancelled = false;
    void createControlClient()
      .session()
      .then((reply) => {
        if (!cancelled) setState(reply.ok && reply.data.authenticated ? 'authenticated' : 'missing');
      });
    return () => {
      cancelled = true;
    };
  }, []);
  return state;
}
