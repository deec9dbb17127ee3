'use client';

import { useEffect } from 'react';
import { adoptApiKey } from '@/lib/client/api-key';

/** Takes the session's request key out of the address bar as soon as a page opens (see lib/client/api-key.ts). */
export function AdoptApiKey() {
  useEffect(adoptApiKey, []);
  return null;
}
