/**
 * The inspector's client (browser-safe): transports, the tracking decorator and its Frame
 * model, the request builder, the session (era, MRTR, tasks, listen) and the task follower.
 * Node-only pieces live in lib/cli and lib/adapters, never here.
 */
export * from './frames';
export * from '../shared/fingerprint';
export * from './transport';
export * from './http-transport';
export * from './memory-transport';
export * from './tracking';
export * from './request-builder';
export * from './results';
export * from './reconnect';
export * from './connection';
export * from './connection-types';
export * from './tools';
export * from './mrtr';
export * from './task-api';
export * from './task-follower';
export * from './listen';
export * from './session';
export { readSse, parseSseText } from './sse';
export * from './headless';
