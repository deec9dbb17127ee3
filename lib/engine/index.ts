/** The mock MCP engine: one scenario served over a web fetch handler or a message face. */
export { createMockEngine, type MockEngine, type MockEngineOptions, type EngineEvent } from './engine';
export { createSystemClock, createRandomIds, type Clock, type IdSource } from './runtime';
export type { ControlAction } from './tasks';
export type { JournalEntry, JournalFrame, JournalEvent, Journal } from './journal';
export type { StreamEnd } from './exchange-tap';
export { gradeClient, GRADE_IDS, ReportCardSchema, GradeSchema, type ReportCard, type Grade, type GradeStatus } from './report-card';
