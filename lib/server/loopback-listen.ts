import type http from 'node:http';
import net from 'node:net';

/**
 * Listening for the app server so that it owns the name `localhost` on its port. The inspector on
 * http://127.0.0.1:P frames the MCP Apps sandbox from http://localhost:P (lib/protocol/sandbox-origin.ts),
 * and browsers try localhost's IPv6 address first: bound to 127.0.0.1 alone, any local process
 * listening on [::1]:P would serve the sandbox page and receive the app's HTML, its tool input and
 * results, and a bridge to the server. So an IPv4 bind is paired with a listener on [::1]:P that
 * hands its connections to the same http.Server (one handler, one set of connections to close).
 */

/** Where the app server listens. */
interface LoopbackListen {
  port: number;
  /** The address it was bound to, as the system reports it (`127.0.0.1`, `0.0.0.0`, `::1`...). */
  address: string;
  /** Whether it listens on [::1] too, by the bind itself (`::1`, `::`) or by a twin listener. */
  ipv6Loopback: boolean;
  /** Stops the twin listener, if any (the http.Server itself is closed by its owner). */
  closeTwin(): Promise<void>;
}

/** A port the system picks may be taken on [::1]; picking again this many times is plenty. */
const PICKS = 10;

/** The machine has no IPv6 loopback: nothing can squat there either, so the bind carries on without it. */
const NO_IPV6 = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT']);

function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

const closeServer = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A named port free on the bind address but held by another process on [::1]; its message says what to do. */
export class Ipv6LoopbackTaken extends Error {
  readonly code = 'EADDRINUSE';
  readonly syscall = 'listen';
  readonly address = '::1';
  constructor(
    readonly port: number,
    host: string,
    cause: unknown,
  ) {
    super(
      `port ${port} is free on ${host} but another process listens on [::1]:${port}, and browsers reach localhost:${port} ` +
        `(where Loupe serves the MCP App sandbox) there first; stop that process (\`lsof -iTCP:${port} -sTCP:LISTEN\` names it) ` +
        'or pass another --port (--port 0 picks a free one)',
      { cause },
    );
  }
}

/**
 * Listen on `host:port` and, for an IPv4 bind, on [::1] at the same port. When [::1] at that port
 * is taken: a port the system picked (`port` 0) is given up for another pick; a port the caller
 * named fails with an error saying so (code EADDRINUSE, address `::1`). Resolves once both listen.
 */
export async function listenLoopback(server: http.Server, host: string, port: number): Promise<LoopbackListen> {
  for (let pick = 1; ; pick++) {
    await listen(server, port, host);
    const bound = server.address() as net.AddressInfo;
    const done = (ipv6Loopback: boolean, twin?: net.Server): LoopbackListen => ({
      port: bound.port,
      address: bound.address,
      ipv6Loopback,
      closeTwin: () => (twin ? closeServer(twin) : Promise.resolve()),
    });
    if (!net.isIPv4(bound.address)) return done(bound.address === '::1' || bound.address === '::');
    // Connections on [::1] go to the same http.Server, which then tracks and closes them too.
    const twin = net.createServer((socket) => server.emit('connection', socket));
    try {
      await listen(twin, bound.port, '::1');
      return done(true, twin);
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (typeof code === 'string' && NO_IPV6.has(code)) return done(false);
      await closeServer(server);
      if (code === 'EADDRINUSE' && port === 0 && pick < PICKS) continue;
      throw code === 'EADDRINUSE' ? new Ipv6LoopbackTaken(bound.port, host, e) : e;
    }
  }
}
