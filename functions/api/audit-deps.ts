import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoAuditLog } from '@tickring/aws/dynamodb';
import type { AuditDeps } from '@tickring/core/audit/use-cases';
import type { Clock, Logger, Metrics } from '@tickring/core/common';

/** The audit log's dependencies: its DynamoDB table (records expire after `retentionDays`). */
export function buildAuditDeps(input: {
  readonly doc: DynamoDBDocumentClient;
  /** The audit table's name (`config.tables.audit`). */
  readonly table: string;
  /** `config.auditRetentionDays`. */
  readonly retentionDays: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
}): AuditDeps {
  const log = new DynamoAuditLog({
    doc: input.doc,
    auditTable: input.table,
    retentionDays: input.retentionDays,
    clock: input.clock,
  });
  return { log, clock: input.clock, logger: input.logger, metrics: input.metrics };
}
