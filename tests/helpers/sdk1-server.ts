import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './processes';

/**
 * The official SDK 1.32.2 server of tests/fixtures/servers/sdk1-elicit.mjs over Streamable HTTP
 * with sessions (2025-11-25), on 127.0.0.1. A test that starts one stops it with `stop`.
 */

export interface Sdk1Server {
  child: ChildProcess;
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** Start the fixture on `port` (0: any free one); resolves once it listens. */
export function startSdk1Server(port = 0): Promise<Sdk1Server> {
  const child = spawn(process.execPath, [path.join(ROOT, 'tests/fixtures/servers/sdk1-elicit.mjs'), '--http', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = (): Promise<void> =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => {
          child.once('exit', () => resolve());
          child.kill();
        });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`the SDK 1.32.2 server exited (${code}) before listening`)));
    child.stdout?.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m?.[1]) resolve({ child, port: Number(m[1]), url: `http://127.0.0.1:${m[1]}/mcp`, stop });
    });
  });
}
