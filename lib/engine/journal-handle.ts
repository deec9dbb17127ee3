import type { JournalEvent, JournalFrame, JournalHandle } from './journal';
import type { HeldEntry } from './journal-entry';
import type { StreamEnd } from './exchange-tap';
import type { PayloadLimits } from './journal-bounds';
import { fitsLimits } from './journal-lazy';

/**
 * One exchange's reporting calls (journal.ts opens them). A class over the journal's shared
 * internals, so a request makes one small object where it made six closures and their context.
 */

/** What a handle needs from its journal (one per journal). */
export interface HandleCore {
  limits: PayloadLimits;
  maxFrames: number;
  now(): number;
  nextOrder(): number;
  grow(entry: HeldEntry, chars: number): void;
  bound(entry: HeldEntry, value: unknown): unknown;
  evict(): void;
  emit(e: JournalEvent): void;
}

export class EntryHandle implements JournalHandle {
  private done = false;
  constructor(
    private readonly core: HandleCore,
    readonly entry: HeldEntry,
  ) {}

  private finish(): void {
    this.done = true;
    this.entry.endedAt = this.core.now();
    this.entry.endOrder = this.core.nextOrder();
    this.core.evict();
    this.core.emit({ type: 'end', entry: this.entry });
  }

  respond(status: number | undefined, body?: unknown, text?: string, depth?: number): void {
    if (this.done) return;
    const { entry, core } = this;
    entry.status = status;
    if (text !== undefined && fitsLimits(text, core.limits, depth)) {
      entry.keepResponseText(text);
      core.grow(entry, text.length);
    } else if (body !== undefined) entry.responseBody = core.bound(entry, body);
    this.finish();
  }

  stream(status: number): void {
    this.entry.status = status;
    this.entry.streamed = true;
  }

  frame(message: unknown): void {
    if (this.done) return;
    const { entry, core } = this;
    if (entry.frames.length >= core.maxFrames) {
      entry.framesOmitted = (entry.framesOmitted ?? 0) + 1;
      return;
    }
    const frame: JournalFrame = { at: core.now(), order: core.nextOrder(), message: core.bound(entry, message) };
    entry.frames.push(frame);
    core.evict();
    core.emit({ type: 'frame', entry, frame });
  }

  close(end: StreamEnd, final?: unknown): void {
    if (this.done) return;
    this.entry.end = end;
    if (final !== undefined) this.entry.responseBody = this.core.bound(this.entry, final);
    this.finish();
  }

  annotate(fields: { principal?: string; fault?: string }): void {
    if (fields.principal !== undefined) this.entry.principal = fields.principal;
    if (fields.fault !== undefined) this.entry.fault = fields.fault;
  }
}
