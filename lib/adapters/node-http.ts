import http from 'node:http';
import { refuseTunnels, toNodeHandler, type FastPath, type FetchHandler } from '../server/node-handler';

/**
 * node:http wiring: a server on a host and port serving a fetch handler, with an optional fast
 * path for the MCP routes (request and response conversion live in lib/server/node-*.ts).
 */

/** Start an HTTP server; resolves with the bound port once it listens. */
export function listen(
  handler: FetchHandler,
  host: string,
  port: number,
  fast?: FastPath,
): Promise<{ server: http.Server; port: number; close: () => Promise<void> }> {
  const server = http.createServer(toNodeHandler(handler, fast));
  server.keepAliveTimeout = 5_000;
  refuseTunnels(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      resolve({
        server,
        port: bound,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
