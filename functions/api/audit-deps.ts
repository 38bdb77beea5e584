import type { AuditLog } from '@tickring/core/audit';
import type { AuditDeps } from '@tickring/core/audit/use-cases';
import type { Clock, Logger, Metrics } from '@tickring/core/common';

/** The audit log's dependencies: its store (records expire after the audit retention). */
export function buildAuditDeps(input: {
  readonly log: AuditLog;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
}): AuditDeps {
  return { log: input.log, clock: input.clock, logger: input.logger, metrics: input.metrics };
}
