import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

/**
 * Three projects: fast unit tests, integration tests over real HTTP and processes, and
 * browser e2e tests. `npm test` (scripts/test.mjs) runs them in that order.
 */
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    setupFiles: ['tests/node20-polyfills.ts'],
    // Generates the bundled app views the built-in scenarios import (a no-op when up to date).
    globalSetup: ['tests/build-apps.global.ts', 'tests/postgres.global.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx', 'tests/contract/**/*.test.ts'], testTimeout: 20_000 },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', 'tests/conformance/**/*.test.ts', 'tests/hardening/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 180_000, fileParallelism: false },
      },
    ],
  },
});
