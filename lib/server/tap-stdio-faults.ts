import type { TapObserver } from '../recording/tap-frames';
import { asRecord } from '../shared/records';
import type { TapFaults } from './tap-faults';

/**
 * Faults on the stdio tap. While no fault is switched on, bytes pass as they come; once one is,
 * each direction switches (at a line boundary, so no line is split between the modes) to line by
 * line: a client request a fault matches is delayed (latency; later lines wait behind it, order
 * is kept), answered in the server's place (a JSON-RPC error), preceded by a line that is not
 * JSON (garbage), or has the server's notifications sent twice until its response (duplicate).
 * HTTP statuses and stream cuts or stalls have no stdio form; they are marked as not applied.
 */

interface StdioFaultRelay {
  /** Bytes from the client, for the server. */
  fromClient(chunk: Buffer): void;
  /** Bytes from the server, for the client (register it before the observer's splitter). */
  fromServer(chunk: Buffer): void;
  /**
   * Whether the relay observed this server line itself (the splitter then skips it): while it
   * sends notifications twice it observes each line as it relays it, so the recording holds the
   * copies where the client got them, not after the answer.
   */
  claimed(line: string): boolean;
}

interface Sinks {
  toServer(bytes: Buffer | string): void;
  toClient(bytes: Buffer | string): void;
}

const GARBAGE = '{"jsonrpc":"2.0","id":';

/** One direction: raw while no fault is on, else complete lines to `onLine`. */
function lineSwitch(active: () => boolean, raw: (c: Buffer) => void, onLine: (line: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let lineMode = false;
  return (chunk) => {
    if (!pending.length) lineMode = active();
    if (!lineMode) return raw(chunk);
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let start = 0;
    for (let nl = pending.indexOf(10); nl !== -1; nl = pending.indexOf(10, start)) {
      onLine(pending.subarray(start, nl + 1));
      start = nl + 1;
    }
    pending = Buffer.from(pending.subarray(start));
  };
}

function parseLine(line: Buffer): Record<string, unknown> | undefined {
  try {
    return asRecord(JSON.parse(line.toString('utf8')));
  } catch {
    return undefined;
  }
}

/** The stdio relay with faults (the observer already sees every line through its own splitter). */
export function createStdioFaultRelay(faults: TapFaults, observer: TapObserver, sinks: Sinks): StdioFaultRelay {
  let order: Promise<void> = Promise.resolve();
  const duplicating = new Set<unknown>();

  const clientLine = (line: Buffer) => {
    const plan = faults.plan(line.toString('utf8'));
    if (!plan) {
      order = order.then(() => sinks.toServer(line));
      return;
    }
    const id = parseLine(line)?.id;
    // HTTP statuses and stream cuts or stalls have no stdio form: marked, with a note that they did not apply.
    const applies = (kind: string) => !['http-status', 'drop', 'stall', 'out-of-order', 'drip'].includes(kind);
    observer.fault(faults.marks(plan).map((m) => (applies(m.kind) ? m : { ...m, note: 'no stdio form: not applied' })));
    order = order.then(async () => {
      if (plan.delayMs) await new Promise((r) => setTimeout(r, plan.delayMs));
      if (plan.stream.some((s) => s.kind === 'garbage')) {
        const g = plan.stream.find((s) => s.kind === 'garbage');
        const text = (g?.kind === 'garbage' && g.text) || GARBAGE;
        sinks.toClient(`${text}\n`);
        observer.fromServer(text);
      }
      if (plan.stream.some((s) => s.kind === 'duplicate')) duplicating.add(id);
      if (plan.reply?.kind === 'rpc-error') {
        const r = plan.reply;
        const answer = JSON.stringify({
          jsonrpc: '2.0',
          id: id ?? null,
          error: { code: r.code, message: r.message, ...(r.data !== undefined ? { data: r.data } : {}) },
        });
        sinks.toClient(`${answer}\n`);
        observer.fromServer(answer);
        return;
      }
      sinks.toServer(line);
    });
  };

  const claims: string[] = [];
  const serverLine = (line: Buffer) => {
    sinks.toClient(line);
    if (!duplicating.size) return;
    const text = line.toString('utf8').replace(/\r?\n$/, '');
    const m = parseLine(line);
    observer.fromServer(text);
    claims.push(text);
    if (typeof m?.method === 'string' && !('id' in m)) {
      sinks.toClient(line);
      observer.fromServer(text);
    } else if (m && !('method' in m)) duplicating.delete(m.id);
  };

  return {
    fromClient: lineSwitch(faults.active, sinks.toServer, clientLine),
    fromServer: lineSwitch(() => faults.active() || duplicating.size > 0, sinks.toClient, serverLine),
    claimed(line) {
      if (claims[0] !== line) return false;
      claims.shift();
      return true;
    },
  };
}
