/**
 * The tiny contract slices are written against, so a slice does not need the type of the
 * store that composes it: the functional form of zustand's `set` (any store whose state
 * includes the slice satisfies it) and `get`.
 *
 *   createStore<A & B>()((set, get) => ({ ...createA(set, get), ...createB(set, get) }))
 */
export type SliceSet<S> = (update: (state: S) => Partial<S>) => void;
/** The `get` a slice reads the composed state with. */
export type SliceGet<S> = () => S;
