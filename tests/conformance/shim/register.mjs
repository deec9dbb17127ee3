// Loaded with `node --import` before the conformance runner on Node 20, which lacks
// fs.globSync (added in Node 22). A resolve hook hands the runner a copy of `fs` that has it.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
