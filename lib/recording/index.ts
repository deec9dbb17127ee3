/**
 * Recordings (browser-safe): the versioned format and its migrations, the recorder fed by the
 * tracking decorator, autosave, redaction with a review list, share links, HAR in and out,
 * replay as a mock and conversion into a scenario. Node-only file access lives in
 * lib/server/recording-files.ts.
 */
export * from './schema';
export * from './connection';
export * from './streams';
export * from './exchanges';
export * from './recorder';
export * from './autosave';
export * from './secrets';
export { redactRecording, reviewItems, maskSecret, KIND_LABELS, type ReviewItem, type RedactOptions } from './redact';
export * from './share';
export * from './har-schema';
export * from './har-export';
export * from './har-import';
export * from './open';
export * from './replay';
export * from './task-lifecycle';
export * from './to-scenario';
export * from './moment';
