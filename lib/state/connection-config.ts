import type { Era } from '../client/request-builder';

/** What the connect form holds (the connection slice's `config`): where to connect, how, with which headers. */

/**
 * `auto`: direct when the server allows CORS, else through the proxy (lib/client/auto-transport.ts).
 * `stdio`: `url` holds a command line the proxy spawns (split without a shell).
 */
export type ConnectionMode = 'auto' | 'direct' | 'proxy' | 'stdio';

/** A custom header row of the editor; disabled rows are kept but not sent. */
export interface HeaderRow {
  name: string;
  value: string;
  enabled: boolean;
}

/** What the connect form holds: where to connect, how, and with which headers. */
export interface ConnectionConfig {
  /** The MCP endpoint; a path (`/mcp`) is resolved against this page's origin. */
  url: string;
  mode: ConnectionMode;
  headers: HeaderRow[];
  /** Sent as `Authorization: Bearer …` when set (a header row named Authorization wins). */
  bearer: string;
  era: Era | 'auto';
  /** Declare the MCP Apps extension (io.modelcontextprotocol/ui) on requests; default true. */
  apps?: boolean;
}

export const DEFAULT_CONFIG: ConnectionConfig = { url: '/mcp', mode: 'auto', headers: [], bearer: '', era: 'auto' };
