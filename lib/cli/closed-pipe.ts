/**
 * A reader that goes away early (`mcp-loupe read … | head -1`) closes the pipe under stdout, and
 * the next write failed with EPIPE as an unhandled 'error' event: a stack trace and exit 1. Like
 * `cat` or `git`, the CLI now stops quietly: nobody is left to read the rest. Set once, for every
 * command, before any of them writes.
 */

const gone = (e: NodeJS.ErrnoException) => e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED';

/** Exit quietly when stdout's reader has gone; ignore a closed stderr (there is no one to tell). */
export function stopQuietlyOnClosedPipes(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (!gone(e)) throw e;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
  process.stderr.on('error', (e: NodeJS.ErrnoException) => {
    if (!gone(e)) throw e;
  });
}
