/**
 * The environment of a process Loupe spawns for a stdio server (the stdio proxy, the stdio tap,
 * the headless client): Loupe's own, minus Loupe's credentials (`LOUPE_TOKEN`, and any
 * `LOUPE_*` variable named like a token, secret, key or password). A spawned server is code the
 * user inspects: with the launch token it could drive Loupe's API. Loupe's plain settings
 * (`LOUPE_DATA_DIR`, `LOUPE_STORE`, ...) still pass, so a Loupe mock run as the child behaves as
 * configured. Variables the spawn request names explicitly are the user's choice and are kept.
 */

const LOUPE_SECRET = /^LOUPE_(?:.*_)?(?:TOKEN|SECRET|KEY|PASSWORD|PASS)(?:_.*)?$/i;

/** The inherited environment without Loupe's credentials, plus `explicit`. */
export function childEnv(explicit: Readonly<Record<string, string>> = {}, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(base)) if (!LOUPE_SECRET.test(k)) env[k] = v;
  // ProcessEnv is typed with NODE_ENV required (Next's augmentation); a copy of the real one has it when it had it.
  return { ...env, ...explicit } as NodeJS.ProcessEnv;
}
