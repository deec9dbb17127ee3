/**
 * A request's deadline over the OAuth flow it waits on. The flow is shared (concurrent 401s
 * wait for one authorization), so one caller's abort must not cancel it for the others: the
 * caller stops waiting, with the signal's reason, and the flow finishes or fails on its own.
 * Without this a token endpoint that never answers held the request past its timeout forever.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
