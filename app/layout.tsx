import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { AdoptApiKey } from '@/components/ui/AdoptApiKey';
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
      <body className="min-h-screen bg-background font-sans text-foreground antialiased">
        <AdoptApiKey />
        {children}
      </body>
    </html>
  );
}
