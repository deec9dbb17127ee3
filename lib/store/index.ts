/**
 * Public face of the stores room: the interfaces and the in-memory implementation, both safe in
 * any JavaScript runtime. The SQLite implementation is Node only and is imported explicitly from
 * `lib/store/sqlite/sqlite-stores`, so bundling this index never pulls in better-sqlite3.
 */
export type * from './types';
export { createMemoryStores } from './memory';
