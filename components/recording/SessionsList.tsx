'use client';

import { useState } from 'react';
import { useSavedSessions } from './use-saved-sessions';

const button = 'rounded-md border border-border px-2 py-0.5 text-xs hover:bg-surface-muted';

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** One saved session: open it; rename it in place; delete it after a second click. */
function SessionRow({ name, bytes, modifiedAt, s }: { name: string; bytes: number; modifiedAt: string; s: ReturnType<typeof useSavedSessions> }) {
  const [renaming, setRenaming] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="flex flex-wrap items-center gap-2 py-1.5" data-testid="session-row" data-name={name}>
      {renaming === undefined ? (
        <span className="min-w-0 flex-1 truncate font-mono text-xs">{name}</span>
      ) : (
        <form
          className="flex flex-1 gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void s.rename(name, renaming).then((ok) => ok && setRenaming(undefined));
          }}
        >
          <input
            aria-label={`New name for ${name}`}
            data-testid="session-rename-input"
            value={renaming}
            onChange={(e) => setRenaming(e.target.value)}
            className="min-w-0 flex-1 rounded-md border border-border bg-surface px-2 py-0.5 font-mono text-xs"
          />
          <button type="submit" className={button} data-testid="session-rename-save">
            Save
          </button>
        </form>
      )}
      <span className="text-xs text-muted">
        {size(bytes)} · {new Date(modifiedAt).toLocaleString()}
      </span>
      <button type="button" className={button} data-testid="session-open" aria-label={`Open ${name}`} onClick={() => void s.open(name)}>
        Open
      </button>
      <button
        type="button"
        className={button}
        data-testid="session-rename"
        aria-label={`Rename ${name}`}
        onClick={() => setRenaming(renaming === undefined ? name.replace(/\.loupe\.json$/, '') : undefined)}
      >
        Rename
      </button>
      <button
        type="button"
        className={`${button} ${confirming ? 'border-danger text-danger' : ''}`}
        data-testid="session-delete"
        aria-label={confirming ? `Really delete ${name}` : `Delete ${name}`}
        onClick={() => (confirming ? void s.remove(name) : setConfirming(true))}
        onBlur={() => setConfirming(false)}
      >
        {confirming ? 'Really delete?' : 'Delete'}
      </button>
    </li>
  );
}

/** The saved sessions (every live session autosaves one), newest first, with open, rename and delete. */
export function SessionsList({ onOpen }: { onOpen: (text: string, name: string) => void }) {
  const s = useSavedSessions(onOpen);
  return (
    <section aria-labelledby="sessions-title" data-testid="sessions-list" className="rounded-xl border border-border bg-surface p-3">
      <h2 id="sessions-title" className="text-sm font-semibold">
        Saved sessions
      </h2>
      {s.error ? (
        <p role="alert" data-testid="sessions-error" className="mt-1 text-xs text-danger">
          {s.error}
        </p>
      ) : null}
      {s.list?.length === 0 ? <p className="mt-1 text-xs text-muted">No saved sessions yet: each inspector session autosaves here.</p> : null}
      <ul className="mt-1 divide-y divide-border">
        {s.list?.map((r) => (
          <SessionRow key={r.name} name={r.name} bytes={r.bytes} modifiedAt={r.modifiedAt} s={s} />
        ))}
      </ul>
    </section>
  );
}
