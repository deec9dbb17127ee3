/** The wire of MCP 2026-07-28 (and 2025-11-25 for older peers): schemas, codes and header rules. */
export * from './constants';
export * from './errors';
export * from './jsonrpc';
export * from './meta';
export * from './headers';
export * from './tools';
export * from './results';
export * from './params';
export * from './mrtr';
export * from './tasks';
export * from './lints';
export * from './apps';
export * from './app-csp';
export * from './fast-params';
