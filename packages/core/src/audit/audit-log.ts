import type { Page } from '../jobs/job-store.js';
import type { AuditEntry, AuditRecord } from './audit.js';

/** Which records a list reads; every filter given must match. */
export interface AuditQuery {
  /** Only the records of this target, e.g. `job#7`. */
  readonly target?: string;
  /** Only the changes of this principal: its name (username, `token:<name>`, `bootstrap`) or its id. */
  readonly actor?: string;
  /** Only this action (`job.update`), or, ending in `*`, the actions it begins (`job.*`). */
  readonly action?: string;
  /** Only the records of this executor group. */
  readonly appName?: string;
  /**
   * Only the records of one of these groups (what a non-admin may see; records of no group are left
   * out too). Empty: nothing. At most {@link MAX_AUDIT_APP_NAMES}.
   */
  readonly appNames?: readonly string[];
  /** Only the records of some group (those of users, tokens and the bootstrap left out). */
  readonly onlyGrouped?: boolean;
  /** Time range, epoch ms, inclusive. Default: the last 30 days up to now; never further back than the retention. */
  readonly from?: number;
  readonly to?: number;
  readonly limit: number;
  readonly cursor?: string;
}

/** Most groups an `appNames` filter takes (DynamoDB's IN takes 100 operands). */
export const MAX_AUDIT_APP_NAMES = 100;

/** How far back a list looks when the query has no `from`. */
export const AUDIT_DEFAULT_DAYS = 30;

/** The audit log: one record per accepted change, kept for the audit retention. */
export interface AuditLog {
  /** Writes one new record (never overwriting another) and returns it with its id. */
  append(entry: AuditEntry): Promise<AuditRecord>;
  /**
   * Records newest first, a page at a time. A page may come back short, even empty, with a cursor
   * (when one read covered only records the filters leave out).
   */
  list(query: AuditQuery): Promise<Page<AuditRecord>>;
}
