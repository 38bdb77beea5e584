import { ValidationError } from '../common/errors.js';
import { decodePageCursor } from '../common/page-cursor.js';
import type { Page } from '../jobs/job-store.js';
import type { AuditEntry, AuditRecord } from './audit.js';
import { AUDIT_ID_PATTERN } from './audit-ids.js';

const DAY_MS = 86_400_000;

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

/** Refuses a query whose time range ends before it starts (ValidationError). */
export function checkAuditRange(query: Pick<AuditQuery, 'from' | 'to'>): void {
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    throw new ValidationError('from must not be after to', 'from');
  }
}

/**
 * The time range a list reads (epoch ms, inclusive): the query's, by default the last
 * {@link AUDIT_DEFAULT_DAYS} up to now, never further back than `retentionDays`. It may end
 * before it starts (nothing to read) when the query's range is older than the retention.
 */
export function auditTimeRange(
  query: Pick<AuditQuery, 'from' | 'to'>,
  nowMs: number,
  retentionDays: number,
): { from: number; to: number } {
  const to = query.to ?? nowMs;
  const from = Math.max(query.from ?? to - AUDIT_DEFAULT_DAYS * DAY_MS, nowMs - retentionDays * DAY_MS);
  return { from, to };
}

/** The error of a cursor that is not one of this list (of every record, or of `target`'s). */
export function invalidAuditCursor(target: string | undefined): ValidationError {
  return new ValidationError(
    target === undefined
      ? 'cursor is not a cursor of this list (a list of all records) this API returned'
      : `cursor is not a cursor of this list (the records of ${target}) this API returned`,
    'cursor',
  );
}

/**
 * The id a cursor of a log read by id (newest first) stopped at, its position being
 * `{ target, id }`: it must be a cursor of this list (of every record, or of `target`'s).
 */
export function lastIdOfAuditCursor(
  cursor: string | undefined,
  target: string | undefined,
): string | undefined {
  const position = decodePageCursor(cursor);
  if (position === undefined) return undefined;
  if (position.target !== target || typeof position.id !== 'string' || !AUDIT_ID_PATTERN.test(position.id)) {
    throw invalidAuditCursor(target);
  }
  return position.id;
}

/** Refuses (RangeError: a caller's bug, not a request's) an `appNames` filter of more than {@link MAX_AUDIT_APP_NAMES}. */
export function checkAuditAppNames(query: Pick<AuditQuery, 'appNames'>): void {
  if (query.appNames !== undefined && query.appNames.length > MAX_AUDIT_APP_NAMES) {
    throw new RangeError(`at most ${MAX_AUDIT_APP_NAMES} appNames; got ${query.appNames.length}`);
  }
}
