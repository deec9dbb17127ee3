'use client';

import { useEffect, useState } from 'react';
import { applyTheme, storedTheme, type ThemeChoice } from './theme';

const CHOICES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** System / light / dark, remembered in this browser (see theme.ts). */
export function ThemeToggle() {
  const [choice, setChoice] = useState<ThemeChoice>('system');
  // The exported page cannot know the stored choice; read it once hydrated (the head script already applied it).
  useEffect(() => setChoice(storedTheme()), []);
  return (
    <fieldset className="flex items-center gap-0.5 rounded-md border border-border p-0.5 text-xs" data-testid="theme-toggle" data-theme-choice={choice}>
      <legend className="sr-only">Theme</legend>
      {CHOICES.map((c) => (
        <label
          key={c.value}
          className={`cursor-pointer rounded px-1.5 py-0.5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent/40 ${choice === c.value ? 'bg-accent text-on-accent' : 'text-muted hover:text-foreground'}`}
        >
          <input
            type="radio"
            name="loupe-theme"
            value={c.value}
            data-testid={`theme-${c.value}`}
            checked={choice === c.value}
            onChange={() => {
              setChoice(c.value);
              applyTheme(c.value);
            }}
            className="sr-only"
          />
          {c.label}
        </label>
      ))}
    </fieldset>
  );
}
