/** vitest global setup: the built-in scenarios import generated app views; make sure they exist. */
export default async function setup(): Promise<void> {
  // @ts-expect-error: a plain .mjs build script without type declarations
  const { buildApps } = (await import('../scripts/build-apps.mjs')) as { buildApps: () => Promise<string[]> };
  await buildApps();
}
