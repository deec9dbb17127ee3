import type { ServerResponse } from 'node:http';
import type { SseSink } from '../engine/sse';

/** A response as an SSE sink: events are written as they come, without a web stream between. */
export function createNodeSseSink(res: ServerResponse): SseSink {
  return {
    write: (chunk) => !res.destroyed && !res.writableEnded && res.write(chunk),
    end: () => {
      if (!res.writableEnded) res.end();
    },
    // Node holds the last write until the next tick: cut the connection after it has gone out.
    destroy: () => void setImmediate(() => res.destroy()),
    onDrain: (listener) => void res.on('drain', listener),
    onClose: (listener) => void res.once('close', listener),
  };
}
