/** Split a byte stream into lines, dropping (and reporting) any longer than `max` bytes. */
export function splitLines(stream: NodeJS.ReadableStream, max: number, onLine: (line: string) => void, onTooLong: (bytes: number) => void): void {
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  stream.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
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
}
