/**
 * One run at a time of an async task asked for in bursts (a server's list_changed notices): a
 * call while a run is under way asks for one more run after it, however many calls came, so the
 * last state is always fetched and never more than twice per burst. A run that is no longer
 * wanted (its connection was replaced) says so itself and returns at once.
 */
export function coalesced(run: () => Promise<unknown>): () => void {
  let running = false;
  let again = false;
  const start = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void run()
      .catch(() => {})
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          start();
        }
      });
  };
  return start;
}
