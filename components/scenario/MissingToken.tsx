/** Shown instead of a control page when the browser has no valid launch-token cookie. */
export function MissingToken() {
  return (
    <div data-testid="missing-token" role="alert" className="mx-auto max-w-xl space-y-2 rounded-xl border border-danger/40 bg-danger/10 p-5">
      <h2 className="text-base font-semibold">This page needs Loupe&apos;s access token</h2>
      <p className="text-sm">
        The control room drives the mock server, so it only works in a browser that opened the URL printed by <code className="font-mono">npm start</code> (it
        ends in <code className="font-mono">?token=…</code>). Open that URL once, then come back here. Every launch prints a new one.
      </p>
    </div>
  );
}
