/** The mock MCP engine: one scenario served over a web fetch handler or a message face. */
export { createMockEngine, type MockEngine, type EngineEvent } from './engine';
export type { Clock } from './runtime';
export type { ControlAction } from './task-control';
export type { JournalEntry } from './journal';
export { entrySnapshot } from './journal-entry';
