import { readFileSync } from 'node:fs';
import { type LocalRoute, send } from './http-gateway.js';
import type { LambdaHost } from './lambda-host.js';

interface StandInInfo {
  readonly endpoint: string;
  readonly port?: number;
  readonly version?: string;
}

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** `GET /health`: 200 with tickring's version, the stand-ins' versions and ports, and the functions. */
export function healthRoute(
  standIns: () => { dynamo?: StandInInfo; sqs?: StandInInfo },
  host: LambdaHost,
): LocalRoute {
  return async (req, _body, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/health') return false;
    const { dynamo, sqs } = standIns();
    const describe = (s: StandInInfo | undefined) =>
      s && {
        endpoint: s.endpoint,
        port: s.port ?? Number(new URL(s.endpoint).port),
        version: s.version ?? 'external',
      };
    send(res, 200, {
      status: 'ok',
      tickring: packageJson.version,
      node: process.version,
      standIns: { dynamodb: describe(dynamo), sqs: describe(sqs) },
      functions: host.names(),
    });
    return true;
  };
}
