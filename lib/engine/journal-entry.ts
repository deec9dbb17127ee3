import type { StreamEnd } from './exchange-tap';
import type { JournalEntry, JournalFrame } from './journal';
import { boundPayload, type PayloadLimits } from './journal-bounds';

/**
 * One exchange as the journal holds it. A class rather than an object literal with four
 * accessors: the literal made four closures and their context on every request, and its fields
 * arrived in a different order per path, so entries did not share one shape. Every field is
 * set in the constructor (undefined until known); the bodies sit behind getters on the
 * prototype, kept as wire text and parsed by their first reader (journal-lazy.ts).
 *
 * Copies go through `toJSON()`: JSON.stringify calls it, and a spread (`{ ...entry }`) would
 * miss the bodies, which are not own properties.
 */

/** The fields an entry exports, in the order its JSON lists them. */
const FIELDS = [
  'seq',
  'at',
  'order',
  'method',
  'id',
  'principal',
  'transport',
  'requestHeaders',
  'requestBody',
  'status',
  'responseBody',
  'streamed',
  'frames',
  'framesOmitted',
  'end',
  'endedAt',
  'endOrder',
  'fault',
  'truncated',
  'bytes',
] as const satisfies readonly (keyof JournalEntry)[];

export class HeldEntry implements JournalEntry {
  method: string | undefined = undefined;
  id: unknown = undefined;
  principal: string | undefined = undefined;
  transport: 'stdio' | undefined = undefined;
  status: number | undefined = undefined;
  streamed = false;
  frames: JournalFrame[] = [];
  framesOmitted: number | undefined = undefined;
  end: StreamEnd | undefined = undefined;
  endedAt: number | undefined = undefined;
  endOrder: number | undefined = undefined;
  fault: string | undefined = undefined;
  truncated: boolean | undefined = undefined;
  #requestText: string | undefined = undefined;
  #requestBody: unknown = undefined;
  #responseText: string | undefined = undefined;
  #responseBody: unknown = undefined;
  /** Counted in the journal's byte total: from when the journal takes it in until it is evicted. */
  #held = false;
  readonly #limits: PayloadLimits;

  constructor(
    readonly seq: number,
    readonly at: number,
    readonly order: number,
    public requestHeaders: Record<string, string>,
    public bytes: number,
    limits: PayloadLimits,
  ) {
    this.#limits = limits;
  }

  get requestBody(): unknown {
    if (this.#requestText !== undefined) {
      this.#requestBody = boundPayload(JSON.parse(this.#requestText), this.#limits).value;
      this.#requestText = undefined;
    }
    return this.#requestBody;
  }

  set requestBody(value: unknown) {
    this.#requestText = undefined;
    this.#requestBody = value;
  }

  get responseBody(): unknown {
    if (this.#responseText !== undefined) {
      this.#responseBody = boundPayload(JSON.parse(this.#responseText), this.#limits).value;
      this.#responseText = undefined;
    }
    return this.#responseBody;
  }

  set responseBody(value: unknown) {
    this.#responseText = undefined;
    this.#responseBody = value;
  }

  /** Keep a body as its wire text; the caller checked that the limits would keep it whole. */
  keepRequestText(text: string): void {
    this.#requestBody = undefined;
    this.#requestText = text;
  }

  keepResponseText(text: string): void {
    this.#responseBody = undefined;
    this.#responseText = text;
  }

  get held(): boolean {
    return this.#held;
  }

  /** Counted from now on (the journal adds what it holds so far itself). */
  hold(): void {
    this.#held = true;
  }

  release(): void {
    this.#held = false;
  }

  /** The entry as a plain object: its fields that are set, bodies parsed. */
  toJSON(): JournalEntry {
    const out: Partial<Record<keyof JournalEntry, unknown>> = {};
    for (const key of FIELDS) {
      const value = this[key];
      if (value !== undefined) out[key] = value;
    }
    return out as JournalEntry;
  }
}

/** A plain copy of any journal entry (a held one, or one read back from a fleet's store). */
export function entrySnapshot(entry: JournalEntry): JournalEntry {
  return entry instanceof HeldEntry ? entry.toJSON() : { ...entry };
}
