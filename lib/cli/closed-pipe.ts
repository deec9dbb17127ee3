/**
 * A reader that goes away early (`mcp-loupe read … | head -1`) closes the pipe under stdout, and
 * the next write failed with EPIPE as an unhandled 'error' event: a stack trace and exit 1. Like
 * `cat` or `git`, the CLI now stops quietly: nobody is left to read the rest. Set once, for every
 * command, before any of them writes.
 */

const gone = (e: NodeJS.ErrnoException) => e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED';

/** Cleared by a command whose stdout is a peer's stream, not output for a reader (the stdio tap). */
let exitWhenStdoutCloses = true;

/**
 * For the stdio tap: its stdout is the client's end of the conversation, and a client that stops
 * reading must not cut the tap short of its recording, its report and the server's exit.
 */
export function keepRunningWhenStdoutCloses(): void {
  exitWhenStdoutCloses = false;
}

/** Exit quietly when stdout's reader has gone; ignore a closed stderr (there is no one to tell). */
export function stopQuietlyOnClosedPipes(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    // The tap's relay reports a dead client through its own stream handling.
    if (!exitWhenStdoutCloses) return;
    if (!gone(e)) throw e;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
  process.stderr.on('error', (e: NodeJS.ErrnoException) => {
    if (!gone(e)) throw e;
  });
}
