import { readFileSync } from 'node:fs';
import { type LocalRoute, type Readiness, send } from './http-gateway.js';

export type { Readiness } from './http-gateway.js';

import type { LambdaHost } from './lambda-host.js';

interface StandInInfo {
  readonly endpoint: string;
  readonly port?: number;
  readonly version?: string;
}

/** Where the stack keeps its data, as `/health` reports it. */
export type StoreHealth =
  | { readonly kind: 'sqlite'; readonly database: string }
  | { readonly kind: 'dynamodb-local'; readonly dynamo?: StandInInfo; readonly sqs?: StandInInfo };

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Failures in a row after which a background check is reported as a problem on `/health`. */
export const FAILURES_BEFORE_PROBLEM = 3;

/** A check failing: how many times in a row, since when (epoch ms), and its last error. */
export interface Failing {
  consecutiveFailures: number;
  since: number;
  lastError: string;
}

/** A condition `/health` asks about each time (the database's disk full): failing while it answers one. */
export type HealthProbe = () => Readonly<Failing> | undefined;

/**
 * What the background work (scheduled invocations, the monitors' sweeps) has been doing: each check
 * is ok until it fails, and counts its failures in a row until it succeeds again. Beside them, the
 * conditions it watches (`watch`).
 */
export class BackgroundHealth {
  private readonly failing = new Map<string, Failing>();
  private readonly probes = new Map<string, HealthProbe>();

  /** Reports `check` as a problem whenever `probe` answers one (from its first failure). */
  watch(check: string, probe: HealthProbe): void {
    this.probes.set(check, probe);
  }

  succeeded(check: string): void {
    this.failing.delete(check);
  }

  failed(check: string, error: string, nowMs = Date.now()): void {
    const current = this.failing.get(check);
    this.failing.set(check, {
      consecutiveFailures: (current?.consecutiveFailures ?? 0) + 1,
      since: current?.since ?? nowMs,
      lastError: error,
    });
  }

  /** Checks failing at least `FAILURES_BEFORE_PROBLEM` times in a row, and the watched conditions failing now. */
  problems(): { check: string; consecutiveFailures: number; since: string; lastError: string }[] {
    const failing: [string, Readonly<Failing>][] = [
      ...[...this.failing].filter(([, f]) => f.consecutiveFailures >= FAILURES_BEFORE_PROBLEM),
      ...[...this.probes].flatMap(([check, probe]): [string, Readonly<Failing>][] => {
        const now = probe();
        return now ? [[check, now]] : [];
      }),
    ];
    return failing.map(([check, f]) => ({
      check,
      consecutiveFailures: f.consecutiveFailures,
      since: new Date(f.since).toISOString(),
      lastError: f.lastError,
    }));
  }

  /** Takes a monitors invocation's result: each sweep named in `failedSweeps` failed, the others ran. */
  monitorsResult(result: unknown): void {
    const reported = (result as { failedSweeps?: unknown } | undefined)?.failedSweeps;
    const failed = new Set(Array.isArray(reported) ? reported.map(String) : []);
    for (const check of [...this.failing.keys()].filter((c) => c.startsWith(SWEEP_PREFIX))) {
      if (!failed.has(check.slice(SWEEP_PREFIX.length))) this.succeeded(check);
    }
    for (const sweep of failed) this.failed(`${SWEEP_PREFIX}${sweep}`, 'see the monitors log');
  }
}

const SWEEP_PREFIX = 'monitors sweep ';

/**
 * `GET /health`: 503 `{"status":"starting"}` (or `stopping`; with `error` and `message`) until the store is ready
 * and every function is hosted; then 200 with tickring's version, the store (`sqlite` and its database
 * file, or `dynamodb-local` and the stand-ins' versions and ports), the functions, and `degraded`
 * with the problems when background work keeps failing.
 */
export function healthRoute(
  store: () => StoreHealth,
  host: LambdaHost,
  readiness: () => Readiness,
  background: BackgroundHealth,
): LocalRoute {
  return async (req, _body, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/health') return false;
    const state = readiness();
    if (state !== 'ready') {
      res.setHeader('retry-after', '1');
      send(res, 503, { status: state, error: 'ServiceUnavailable', message: `tickring is ${state}` });
      return true;
    }
    const where = store();
    const describe = (s: StandInInfo | undefined) =>
      s && {
        endpoint: s.endpoint,
        port: s.port ?? Number(new URL(s.endpoint).port),
        version: s.version ?? 'external',
      };
    const problems = background.problems();
    send(res, 200, {
      status: problems.length > 0 ? 'degraded' : 'ok',
      tickring: packageJson.version,
      node: process.version,
      store: where.kind,
      ...(where.kind === 'sqlite'
        ? { database: where.database }
        : { standIns: { dynamodb: describe(where.dynamo), sqs: describe(where.sqs) } }),
      functions: host.names(),
      problems,
    });
    return true;
  };
}
