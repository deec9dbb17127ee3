/**
 * The outbound buffer of one SSE stream. When a slow reader lets it fill, the oldest droppable
 * frame (an intermediate snapshot, a keep-alive) is discarded; the final response never is.
 */

/** One queued event. */
interface SseFrame {
  /** Serialized SSE text, ready to write. */
  text: string;
  /** May be discarded under back-pressure (intermediate snapshots). */
  droppable: boolean;
  /** Frames with the same key supersede each other (e.g. snapshots of one task). */
  key?: string;
}

/** Bounded FIFO of SSE frames. */
export class BoundedSseBuffer {
  private frames: SseFrame[] = [];
  private finalFrame: SseFrame | undefined;
  dropped = 0;

  constructor(readonly capacity: number) {
    if (capacity < 2) throw new Error('Failed to create SSE buffer: capacity must be at least 2');
  }

  /** Queue a frame; returns false when a frame had to be dropped to make room. */
  push(frame: SseFrame): boolean {
    if (this.frames.length < this.capacity) {
      this.frames.push(frame);
      return true;
    }
    const sameKey = frame.key === undefined ? -1 : this.frames.findIndex((f) => f.droppable && f.key === frame.key);
    const victim = sameKey >= 0 ? sameKey : this.frames.findIndex((f) => f.droppable);
    if (victim < 0) {
      // Nothing droppable: grow rather than lose a non-droppable message.
      this.frames.push(frame);
      return true;
    }
    this.frames.splice(victim, 1);
    this.frames.push(frame);
    this.dropped++;
    return false;
  }

  /** Queue the final response; it is delivered after every queued frame and never dropped. */
  pushFinal(frame: SseFrame): void {
    this.finalFrame = frame;
  }

  shift(): SseFrame | undefined {
    return this.frames.shift() ?? (this.finalFrame ? this.takeFinal() : undefined);
  }

  private takeFinal(): SseFrame | undefined {
    const f = this.finalFrame;
    this.finalFrame = undefined;
    return f;
  }

  get size(): number {
    return this.frames.length + (this.finalFrame ? 1 : 0);
  }
  get hasFinal(): boolean {
    return this.finalFrame !== undefined;
  }
}
