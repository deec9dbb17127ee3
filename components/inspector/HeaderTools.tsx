'use client';

import Link from 'next/link';
import { ThemeToggle } from '@/components/ui/ThemeToggle';
import { ShortcutsHelp } from './ShortcutsHelp';

/** The inspector header's habits: the saved sessions, the theme, the keyboard shortcuts. */
export function HeaderTools() {
  return (
    <div className="flex items-center gap-3">
      <Link href="/recording" className="text-sm text-accent hover:underline" data-testid="sessions-link">
        Sessions
      </Link>
      <ThemeToggle />
      <ShortcutsHelp />
    </div>
  );
}
