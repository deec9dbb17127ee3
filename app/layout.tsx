import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { THEME_BOOT } from '@/components/ui/theme';
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
    // The head script sets data-theme before React hydrates, so <html> differs from the export on purpose.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours (theme.ts), run before the first paint so a dark choice never flashes light */}
        <script dangerouslySetInnerHTML={{ __html: THEME_BOOT }} />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours, no outside input: it must run before hydration */}
        <script dangerouslySetInnerHTML={{ __html: ADOPT_API_KEY_SCRIPT }} />
      </head>
      <body className="min-h-screen bg-background font-sans text-foreground antialiased">{children}</body>
    </html>
  );
}
