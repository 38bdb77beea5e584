import { createServer, isIP } from 'node:net';
import { LocalStartError } from './errors.js';

export const LOOPBACK = '127.0.0.1';

/** The address to listen on: an IP address (checked), 127.0.0.1 when none is given. */
export function listenHost(host: string | undefined): string {
  if (host === undefined) return LOOPBACK;
  if (isIP(host) === 0) {
    throw new LocalStartError(
      `--host must be an IP address to listen on (127.0.0.1, ::1, 0.0.0.0 for every interface), got "${host}"`,
    );
  }
  return host;
}

/** How this machine reaches a server listening on `host`, as a URL's host part. */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0') return LOOPBACK;
  if (host === '::') return '[::1]';
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** Asks the OS for a free loopback port (for stand-ins that cannot listen on port 0 themselves). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Fails with a one-line message when `port` is already taken on `host` (default loopback). */
export function assertPortFree(port: number, what: string, host = LOOPBACK): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new LocalStartError(
          err.code === 'EADDRINUSE'
            ? `Port ${port} (${what}) is already in use on ${host}; stop whatever holds it or choose another with --port / PORT`
            : `Cannot listen on ${host}:${port} (${what}): ${err.message}`,
        ),
      );
    });
    server.listen(port, host, () => server.close(() => resolve()));
  });
}
