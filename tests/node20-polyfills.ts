/**
 * msw 3 and some dependencies expect Node 22 built-ins. These fill the gaps on Node 20;
 * drop this file when the project moves to Node 22.12 or later.
 */
const P = Promise as unknown as { withResolvers?: unknown };
if (typeof P.withResolvers !== 'function') {
  P.withResolvers = function withResolvers<T>() {
    let resolve!: (v: T | PromiseLike<T>) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

const setProto = Set.prototype as unknown as Record<string, unknown>;
const setMethods: Record<string, (this: Set<unknown>, other: Set<unknown>) => unknown> = {
  intersection(other) {
    return new Set([...this].filter((v) => other.has(v)));
  },
  union(other) {
    return new Set([...this, ...other]);
  },
  difference(other) {
    return new Set([...this].filter((v) => !other.has(v)));
  },
  symmetricDifference(other) {
    return new Set([...[...this].filter((v) => !other.has(v)), ...[...other].filter((v) => !this.has(v))]);
  },
  isSubsetOf(other) {
    return [...this].every((v) => other.has(v));
  },
  isSupersetOf(other) {
    return [...other].every((v) => this.has(v));
  },
  isDisjointFrom(other) {
    return [...this].every((v) => !other.has(v));
  },
};
for (const [name, fn] of Object.entries(setMethods)) {
  if (typeof setProto[name] !== 'function') {
    Object.defineProperty(Set.prototype, name, { value: fn, configurable: true, writable: true });
  }
}

const g = globalThis as unknown as { EventSource?: unknown };
if (typeof g.EventSource === 'undefined') {
  // msw only checks that the constructor exists; it ships its own implementation.
  g.EventSource = class EventSourceStub {
    constructor() {
      throw new Error('Failed to create EventSource: not available on Node 20');
    }
  };
}
export {};
