import type { Clock } from '../common/clock.js';
import { ValidationError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import { METRIC, type Metrics } from '../common/metrics.js';
import { readOnPastEmptyPages } from '../common/paging.js';
import { ALL_GROUPS, type Principal } from '../identity/access.js';
import type { Page } from '../jobs/job-store.js';
import {
  type AuditActor,
  type AuditEntry,
  type AuditRecord,
  type AuditSource,
  diffFields,
  isFields,
  redactChanges,
  redactSecrets,
} from './audit.js';
import { type AuditLog, type AuditQuery, MAX_AUDIT_APP_NAMES } from './audit-log.js';

/** The audit log: writing a record per accepted change, and reading them back. */
export interface AuditDeps {
  readonly log: AuditLog;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
}

/** An accepted change, as the API reports it after the change succeeded. */
export interface AuditChange {
  /** Who made it; undefined: no principal (recorded as `anonymous`). */
  readonly principal: Principal | undefined;
  readonly source: AuditSource;
  /** e.g. `job.update` (the route's AuditSpec action). */
  readonly action: string;
  /** e.g. `job#7` (see `auditTarget`). */
  readonly target: string;
  /** The target's executor group, when it has one. */
  readonly appName?: string;
  /**
   * The target as the API showed it before the change (null: a creation) and after it (null: a
   * deletion), each an object (see `diffFields`).
   */
  readonly before: unknown;
  readonly after: unknown;
  /** What the change took besides the target's fields (a trigger's overrides and runs); an object, or kept as `{value}`. */
  readonly detail?: unknown;
  readonly requestId: string;
}

/** Longest user agent (and source address) kept: the rest of a header is cut. */
const MAX_USER_AGENT = 512;
const MAX_IP = 64;

/** The record of a change: the changed fields only, secrets redacted (also in the detail). */
export function auditEntry(change: AuditChange, at: number): AuditEntry {
  return {
    at,
    actor: actorOf(change.principal),
    source: {
      ip: change.source.ip.slice(0, MAX_IP),
      userAgent: change.source.userAgent.slice(0, MAX_USER_AGENT),
    },
    action: change.action,
    target: change.target,
    ...(change.appName === undefined ? {} : { appName: change.appName }),
    changes: redactChanges(diffFields(change.before, change.after)),
    ...(change.detail === undefined || change.detail === null
      ? {}
      : { detail: redactSecrets(isFields(change.detail) ? change.detail : { value: change.detail }) }),
    requestId: change.requestId,
  };
}

function actorOf(principal: Principal | undefined): AuditActor {
  if (principal === undefined) return { kind: 'anonymous', id: '', name: 'anonymous' };
  return {
    kind: principal.kind,
    id: principal.id,
    name: principal.name,
    ...(principal.credentialId === undefined ? {} : { credentialId: principal.credentialId }),
  };
}

/**
 * Writes the record of an accepted change (counted as AuditWrites). The change already happened,
 * so a failure to write its record does not fail the request: it is logged as an error naming the
 * change, counted as AuditWriteFailures, and the result is undefined.
 */
export async function recordChange(deps: AuditDeps, change: AuditChange): Promise<AuditRecord | undefined> {
  try {
    const record = await deps.log.append(auditEntry(change, deps.clock.now()));
    deps.metrics.add(METRIC.auditWrites, 'Count', 1);
    return record;
  } catch (err) {
    deps.logger.error('audit record not written', {
      action: change.action,
      target: change.target,
      appName: change.appName,
      actor: change.principal?.name ?? 'anonymous',
      requestId: change.requestId,
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    });
    deps.metrics.add(METRIC.auditWriteFailures, 'Count', 1);
    return undefined;
  }
}

/**
 * A page of audit records, newest first, as the caller may see them: an admin sees every record;
 * anyone else only the records of the groups it reaches (`visibleGroups`; ALL_GROUPS: of any
 * group), never those of users, tokens and the bootstrap, which have no group. Never empty while a
 * cursor follows, within the read-on budget (see {@link readOnPastEmptyPages}).
 */
export async function listAudit(
  deps: Pick<AuditDeps, 'log' | 'clock'>,
  query: AuditQuery,
  visibleGroups: ReadonlySet<string> | typeof ALL_GROUPS,
  admin: boolean,
): Promise<Page<AuditRecord>> {
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    throw new ValidationError('from must not be after to', 'from');
  }
  const { appNames: _own, onlyGrouped: _decided, ...asked } = query;
  const read = (narrowed: Partial<AuditQuery>, keep: (record: AuditRecord) => boolean) =>
    readOnPastEmptyPages(deps.clock, query.cursor, async (cursor) => {
      const page = await deps.log.list({ ...asked, ...narrowed, cursor });
      return { ...page, items: page.items.filter(keep) };
    });
  if (admin) return read({}, () => true);
  if (visibleGroups === ALL_GROUPS) return read({ onlyGrouped: true }, (r) => r.appName !== undefined);
  if (query.appName !== undefined && !visibleGroups.has(query.appName)) return { items: [] };
  if (visibleGroups.size === 0) return { items: [] };
  const visible = (record: AuditRecord) => record.appName !== undefined && visibleGroups.has(record.appName);
  // The log filters by the caller's groups when they fit one filter (else only by having a group,
  // and the page is filtered here).
  const narrowed =
    query.appName !== undefined
      ? {}
      : visibleGroups.size <= MAX_AUDIT_APP_NAMES
        ? { appNames: [...visibleGroups] }
        : { onlyGrouped: true };
  return read(narrowed, visible);
}
