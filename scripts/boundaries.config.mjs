/**
 * The import rules of Loupe's rooms, read by scripts/check-boundaries.mjs. DESIGN's rule is "rooms
 * import downward only": shared ← protocol ← scenario, store ← engine ← server ← adapters, cli;
 * protocol ← client, recording ← state ← components ← app. Each room lists what it may import besides
 * itself; every list is as tight as the code allows, so a new edge is a decision made here, in review.
 */

/** Every folder that holds source. A file under lib/, components/ or app/ outside these is reported. */
export const rooms = [
  'lib/shared',
  'lib/protocol',
  'lib/scenario',
  'lib/store',
  'lib/engine',
  'lib/server',
  'lib/adapters',
  'lib/client',
  'lib/recording',
  'lib/state',
  'lib/cli',
  'components',
  'app',
];

const serverRooms = ['lib/shared', 'lib/protocol', 'lib/scenario', 'lib/store', 'lib/engine', 'lib/recording'];

/** Room → the rooms it may import (its own room is always allowed). */
export const allow = {
  'lib/shared': [],
  'lib/protocol': ['lib/shared'],
  'lib/scenario': ['lib/shared', 'lib/protocol'],
  'lib/store': ['lib/shared', 'lib/protocol'],
  'lib/engine': ['lib/shared', 'lib/protocol', 'lib/scenario', 'lib/store'],
  // The product's server hosts the engine and serves recordings; it needs no inspector client today.
  'lib/server': serverRooms,
  // Wiring of each host: everything the server may use, plus the server itself.
  'lib/adapters': [...serverRooms, 'lib/server'],
  'lib/client': ['lib/shared', 'lib/protocol'],
  'lib/recording': ['lib/shared', 'lib/protocol', 'lib/client'],
  'lib/state': ['lib/shared', 'lib/protocol', 'lib/client', 'lib/recording'],
  // The CLI drives every room except the browser's stores.
  'lib/cli': rooms.filter((r) => r.startsWith('lib/') && r !== 'lib/state' && r !== 'lib/cli'),
  // The control room validates the YAML being edited with the scenario room's pure parser.
  components: ['lib/shared', 'lib/protocol', 'lib/scenario', 'lib/client', 'lib/recording', 'lib/state'],
  // Pages only: a static export runs in the browser, so no server code can be behind a page.
  app: ['components', 'lib/shared', 'lib/protocol', 'lib/client', 'lib/recording', 'lib/state'],
};

/**
 * Files that run on Node only. A room that bans Node built-ins may not import them either (except
 * from another node-only file), so the web-standard rooms cannot reach the filesystem indirectly.
 */
export const nodeOnly = [
  { path: 'lib/store/sqlite/**', reason: 'better-sqlite3, node:sqlite and node:fs: the durable stores of the CLI and the app server' },
  { path: 'lib/store/postgres/**', reason: 'pg (loaded with node:module on first use): the stores a fleet of mock instances shares' },
  {
    path: 'lib/scenario/files.ts',
    reason: 'reads scenario files and resolves ui:// HTML paths with node:fs and node:path; the loader itself stays browser-safe for the editor',
  },
];

/** Node's built-in modules, bare (`fs`) or prefixed (`node:fs`). */
export const NODE_BUILTINS = '<node built-ins>';

const platformNeutral = ['lib/shared', 'lib/protocol', 'lib/scenario', 'lib/store', 'lib/engine', 'lib/client', 'lib/recording', 'lib/state'];

/**
 * Package rules. `packages` entries are exact names, `name/*` for subpaths, `node:*` or
 * NODE_BUILTINS; `except` lists file paths (`dir/**` for a folder) the rule does not apply to.
 */
export const packageRules = [
  {
    id: 'no UI framework',
    why: 'the engine runs behind any host (MSW, node:http, a test) and the client, recording and state rooms under any UI',
    rooms: platformNeutral,
    // zustand's root entry is its React binding; lib/state builds vanilla stores (zustand/vanilla).
    packages: ['react', 'react/*', 'react-dom', 'react-dom/*', 'next', 'next/*', 'zustand', 'zustand/react', 'zustand/react/*'],
    except: [],
  },
  {
    id: 'no Node built-ins',
    why: 'these rooms also run in the browser (editor, inspector, recordings, MSW) and use web-standard APIs only',
    rooms: [...platformNeutral, 'components', 'app'],
    packages: ['node:*', NODE_BUILTINS],
    except: nodeOnly.map((n) => n.path),
  },
  {
    id: 'better-sqlite3 in lib/store/sqlite only',
    why: 'a native module: everything else reaches it through the store interfaces',
    rooms,
    packages: ['better-sqlite3', 'better-sqlite3/*'],
    except: ['lib/store/sqlite/**'],
  },
  {
    id: 'pg in lib/store/postgres only',
    why: 'an optional dependency loaded on first use: everything else reaches PostgreSQL through the store interfaces',
    rooms,
    packages: ['pg', 'pg/*'],
    except: ['lib/store/postgres/**'],
  },
  {
    id: 'msw in lib/adapters only',
    why: 'an optional peer dependency of mcp-loupe/msw; the engine entry must load without it',
    rooms: rooms.filter((r) => r !== 'lib/adapters'),
    packages: ['msw', 'msw/*'],
    except: [],
  },
];
