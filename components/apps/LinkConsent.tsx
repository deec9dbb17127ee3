'use client';

/**
 * The consent prompt for `ui/open-link`: the view asked the inspector to open a URL. The full
 * URL is shown with its host emphasised (an app can word a link any way it likes), and nothing
 * opens until the user says so; the app is told whether it did.
 */
export function LinkConsent({ url, answer }: { url: string; answer(ok: boolean): void }) {
  let host = '';
  try {
    host = new URL(url).host;
  } catch {
    host = '';
  }
  return (
    <div
      role="alertdialog"
      aria-label="The app wants to open a link"
      data-testid="open-link-consent"
      className="space-y-2 rounded-md border border-accent/50 bg-accent/10 p-3 text-sm"
    >
      <p>
        The app asks to open a page on <strong className="font-mono">{host || 'an unknown host'}</strong>:
      </p>
      <p className="break-all font-mono text-xs" data-testid="open-link-url">
        {url}
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          data-testid="open-link-allow"
          onClick={() => answer(true)}
          className="rounded-md bg-accent px-3 py-1 text-xs font-medium text-on-accent"
        >
          Open in a new tab
        </button>
        <button type="button" data-testid="open-link-deny" onClick={() => answer(false)} className="rounded-md border border-border px-3 py-1 text-xs">
          Don’t open
        </button>
      </div>
    </div>
  );
}
