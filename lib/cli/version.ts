/**
 * The package's version, inlined from package.json when scripts/build-cli.mjs bundles the CLI
 * (esbuild `define`), so `--version` and the clientInfo the commands send never drift from
 * what was published.
 */
declare const __LOUPE_VERSION__: string | undefined;

/** The version of this mcp-loupe; `0.0.0-source` when run unbundled. */
export const VERSION: string = typeof __LOUPE_VERSION__ === 'string' ? __LOUPE_VERSION__ : '0.0.0-source';
