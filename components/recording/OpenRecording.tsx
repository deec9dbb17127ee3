'use client';

import { useRef, useState, type DragEvent } from 'react';

/**
 * Open a recording: pick a file or drop one here (a Loupe recording of any version, or a HAR
 * saved from a browser's network panel). The file is read in the page; nothing is uploaded.
 */
export function OpenRecording({ onOpen, error, compact = false }: { onOpen: (text: string, name: string) => void; error?: string; compact?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const read = (file: File | undefined) => {
    if (file) void file.text().then((text) => onOpen(text, file.name));
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    read(e.dataTransfer.files[0]);
  };
  return (
    <section
      aria-label="Open a recording"
      data-testid="open-recording"
      data-over={over}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={`rounded-xl border-2 border-dashed ${over ? 'border-accent bg-accent/5' : 'border-border'} ${compact ? 'p-2' : 'p-8 text-center'}`}
    >
      <input
        ref={input}
        type="file"
        accept=".json,.har,application/json"
        data-testid="recording-file"
        className="hidden"
        onChange={(e) => read(e.target.files?.[0])}
      />
      {compact ? (
        <button type="button" onClick={() => input.current?.click()} className="text-sm text-accent hover:underline">
          Open another recording…
        </button>
      ) : (
        <div className="space-y-2">
          <p className="text-sm">
            Drop a recording here, or{' '}
            <button type="button" onClick={() => input.current?.click()} className="text-accent hover:underline" data-testid="pick-recording">
              choose a file
            </button>
            .
          </p>
          <p className="text-xs text-muted">
            Loupe recordings (.loupe.json, any version) and HAR files saved from a browser&apos;s network panel. Share links open here too.
          </p>
        </div>
      )}
      {error ? (
        <p role="alert" data-testid="open-error" className="mt-2 text-xs text-danger">
          {error}
        </p>
      ) : null}
    </section>
  );
}
