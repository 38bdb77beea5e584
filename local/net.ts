import { createServer } from 'node:net';
import { LocalStartError } from './errors.js';

export const LOOPBACK = '127.0.0.1';

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

/** Fails with a one-line message when `port` is already taken on loopback. */
export function assertPortFree(port: number, what: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new LocalStartError(
          err.code === 'EADDRINUSE'
            ? `Port ${port} (${what}) is already in use on ${LOOPBACK}; stop whatever holds it or choose another with --port / PORT`
            : `Cannot listen on ${LOOPBACK}:${port} (${what}): ${err.message}`,
        ),
      );
    });
    server.listen(port, LOOPBACK, () => server.close(() => resolve()));
  });
}
