import { buildApp } from 'fauxqs';
import { LOOPBACK } from '../net.js';

export const FAUXQS_VERSION = '1.9.2';

export interface SqsStandIn {
  readonly endpoint: string;
  readonly port: number;
  readonly version: string;
  stop(): Promise<void>;
}

/**
 * Starts the fauxqs SQS (and SNS) stand-in in this process, bound to 127.0.0.1 only
 * (`startFauxqs()` would listen on 0.0.0.0). Messages live in memory.
 */
export async function startSqsStandIn(options: { port?: number } = {}): Promise<SqsStandIn> {
  const app = buildApp({ logger: false });
  await app.listen({ port: options.port ?? 0, host: LOOPBACK });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://${LOOPBACK}:${port}`,
    port,
    version: `fauxqs@${FAUXQS_VERSION}`,
    stop: async () => {
      await app.close();
    },
  };
}
