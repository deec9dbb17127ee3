/**
 * Split a byte stream into lines, dropping (and reporting) any longer than `max` bytes: a line
 * over the limit is never held whole, only counted until its newline. With `onEnd`, the stream's
 * end hands over a last line that had no newline, then calls `onEnd`.
 */
export function splitLines(
  stream: NodeJS.ReadableStream,
  max: number,
  onLine: (line: string) => void,
  onTooLong: (bytes: number) => void,
  onEnd?: () => void,
): void {
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  const emit = (piece: Buffer) => {
    if (!skipping && size + piece.length <= max)
      onLine(
        Buffer.concat([...parts, piece])
          .toString('utf8')
          .replace(/\r$/, ''),
      );
    else onTooLong(size + piece.length);
    parts = [];
    size = 0;
    skipping = false;
  };
  stream.on('data', (data: Buffer | string) => {
    // A stream with an encoding set hands over strings; the limit counts bytes.
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      emit(chunk.subarray(start, nl));
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (skipping || size + rest.length > max) {
      skipping = true;
      size += rest.length;
      parts = [];
    } else if (rest.length) {
      parts.push(Buffer.from(rest));
      size += rest.length;
    }
  });
  if (!onEnd) return;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    if (size) emit(Buffer.alloc(0));
    onEnd();
  };
  stream.on('end', end);
  stream.on('close', end);
}
