import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * The run's PostgreSQL (tests/postgres.global.ts starts it on the first call) and fresh, empty
 * databases in it, so tests never see each other's rows.
 */

let server: Promise<string> | undefined;

/** URL of the run's PostgreSQL server (its `postgres` database). */
export function postgresUrl(): Promise<string> {
  server ??= fetch(inject('pgBroker')).then(async (res) => {
    const body = (await res.json()) as { url?: string; error?: string };
    if (!body.url) throw new Error(`PostgreSQL for tests did not start: ${body.error}`);
    return body.url;
  });
  return server;
}

/** Create an empty database and return its URL. */
export async function freshDatabase(): Promise<string> {
  const admin = new URL(await postgresUrl());
  const name = `loupe_t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  admin.pathname = `/${name}`;
  return admin.toString();
}
