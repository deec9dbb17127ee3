import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { ADOPT_API_KEY_SCRIPT } from '@/lib/client/api-key';
import './globals.css';

/** Title, description, referrer policy and icon of every page. */
export const metadata: Metadata = {
  title: 'Loupe',
  description: 'Inspector and scriptable mock server for MCP 2026-07-28.',
  referrer: 'no-referrer',
  // Linked explicitly, so browsers ask for this file instead of a /favicon.ico that is not there.
  icons: { icon: { url: '/favicon.svg', type: 'image/svg+xml' } },
};

/** The document shell every page renders in. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours, no outside input: it must run before hydration */}
        <script dangerouslySetInnerHTML={{ __html: ADOPT_API_KEY_SCRIPT }} />
      </head>
      <body className="min-h-screen bg-background font-sans text-foreground antialiased">{children}</body>
    </html>
  );
}
