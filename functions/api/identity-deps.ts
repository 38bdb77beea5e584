import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoPrincipalStore } from '@tickring/aws/dynamodb';
import type { Clock, Logger } from '@tickring/core/common';
import { type Metrics, noMetrics } from '@tickring/core/common';
import { type PasswordHasher, scryptHasher } from '@tickring/core/identity';
import type { IdentityDeps } from '@tickring/core/identity/use-cases';

export interface IdentityDepsInput {
  readonly doc: DynamoDBDocumentClient;
  /** The principals table. */
  readonly table: string;
  /** The configured bootstrap admin token (read once, e.g. from Secrets Manager). */
  readonly bootstrapToken: () => Promise<string>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** FailedLogins is counted here (default: not counted). */
  readonly metrics?: Metrics;
  readonly sessionIdleMinutes: number;
  readonly sessionMaxHours: number;
  /** Tests pass a cheaper scrypt; the default is SCRYPT_DEFAULTS. */
  readonly passwords?: PasswordHasher;
}

/** The identity use-cases' dependencies over the principals table. */
export function buildIdentityDeps(input: IdentityDepsInput): IdentityDeps {
  return {
    store: new DynamoPrincipalStore({ doc: input.doc, table: input.table }),
    passwords: input.passwords ?? scryptHasher(),
    bootstrapToken: input.bootstrapToken,
    clock: input.clock,
    logger: input.logger,
    metrics: input.metrics ?? noMetrics,
    sessions: { idleMs: input.sessionIdleMinutes * 60_000, maxMs: input.sessionMaxHours * 3_600_000 },
  };
}
