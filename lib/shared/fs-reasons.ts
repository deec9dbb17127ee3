/**
 * Node's file-system error codes as a person would say them, for messages that name the file
 * ("cannot write out.json: it is a directory") instead of a bare `EISDIR: illegal operation…`.
 * One table for reads and writes, so the same failure reads the same wherever it happens.
 */
const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of its path is a file, not a directory',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  // Not Node's: Loupe's own code for a path that names a device, a socket or a FIFO it refuses.
  ENOTFILE: 'it is a device or a socket, not a file',
};

/** Why a file operation failed, in words: the code's reason, else the error's own message. */
export function fsReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' && Object.hasOwn(FS_REASONS, code) ? FS_REASONS[code] : undefined;
  return known ?? (error instanceof Error ? error.message : String(error));
}

/** Whether a write failed for want of space (the file system's, a quota's, or SQLite's own report of it). */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}
