// Module resolve hook: `fs` / `node:fs` imported from the conformance package resolves to
// fs-with-glob.mjs. Everything else resolves as usual.
const shim = new URL('./fs-with-glob.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  const fromConformance = context.parentURL?.includes('/@modelcontextprotocol/conformance/');
  if (fromConformance && (specifier === 'fs' || specifier === 'node:fs')) {
    return { url: shim, shortCircuit: true };
  }
  return next(specifier, context);
}
