/** The vocabulary every room uses. Imports nothing outside this folder. */
export * from './clock';
export * from './fingerprint';
export * from './json';
export * from './records';
export * from './task-status';
