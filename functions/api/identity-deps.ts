import type { Clock, Logger } from '@tickring/core/common';
import { type Metrics, noMetrics } from '@tickring/core/common';
import {
  type PasswordHasher,
  type PrincipalStore,
  SCRYPT_DEFAULTS,
  scryptHasher,
} from '@tickring/core/identity';
import type { IdentityDeps } from '@tickring/core/identity/use-cases';

export interface IdentityDepsInput {
  /** Users, sessions, API tokens, failed-login counters. */
  readonly store: PrincipalStore;
  /** The configured bootstrap admin token (read once, e.g. from Secrets Manager). */
  readonly bootstrapToken: () => Promise<string>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** FailedLogins is counted here (default: not counted). */
  readonly metrics?: Metrics;
  readonly sessionIdleMinutes: number;
  readonly sessionMaxHours: number;
  /** scrypt's cost of new password hashes, log2 N (SCRYPT_COST). */
  readonly passwordHashCost: number;
  /** Tests pass a scrypt of their own; the default is SCRYPT_DEFAULTS at `passwordHashCost`. */
  readonly passwords?: PasswordHasher;
}

/** The identity use-cases' dependencies over the principal store. */
export function buildIdentityDeps(input: IdentityDepsInput): IdentityDeps {
  return {
    store: input.store,
    passwords: input.passwords ?? scryptHasher({ ...SCRYPT_DEFAULTS, N: 2 ** input.passwordHashCost }),
    bootstrapToken: input.bootstrapToken,
    clock: input.clock,
    logger: input.logger,
    metrics: input.metrics ?? noMetrics,
    sessions: { idleMs: input.sessionIdleMinutes * 60_000, maxMs: input.sessionMaxHours * 3_600_000 },
  };
}
