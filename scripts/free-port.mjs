// One free-port helper for the scripts and the tests (tests/helpers/processes.ts re-exports it).
import net from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago: the OS picks it for a listener on port 0,
 * which is closed again before the caller binds it.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
