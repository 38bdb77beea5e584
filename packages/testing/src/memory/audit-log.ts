import { randomBytes } from 'node:crypto';
import {
  AUDIT_ID_RANDOM_CHARS,
  type AuditEntry,
  type AuditLog,
  type AuditQuery,
  type AuditRecord,
  auditId,
  auditTimeRange,
  checkAuditAppNames,
  checkAuditRange,
  lastIdOfAuditCursor,
} from '@tickring/core/audit';
import { type Clock, systemClock } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import { pageOf } from './cursor.js';

const MAX_ID_ATTEMPTS = 3;

export interface MemoryAuditLogOptions {
  /** Records older than this many days are gone for readers. */
  readonly retentionDays: number;
  /** "Now" of the default time range and the retention bound. */
  readonly clock?: Clock;
  /** Random bytes for the ids. */
  readonly random?: (size: number) => Uint8Array;
}

/**
 * The audit log in memory, with the DynamoDB log's rules: ids are ULIDs (time, then randomness), a
 * list reads newest first within its time range (by default the last 30 days, never past the
 * retention), and a cursor belongs to its list (of every record, or of one target).
 */
export class MemoryAuditLog implements AuditLog {
  /** Every record appended, by id. */
  readonly records = new Map<string, AuditRecord>();
  private readonly clock: Clock;
  private readonly random: (size: number) => Uint8Array;

  constructor(private readonly options: MemoryAuditLogOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? randomBytes;
  }

  async append(entry: AuditEntry): Promise<AuditRecord> {
    let id = auditId(entry.at, this.random(AUDIT_ID_RANDOM_CHARS));
    // Never overwrites a record: an id drawn twice is drawn again (as often as the DynamoDB log tries).
    for (let attempt = 1; this.records.has(id); attempt++) {
      if (attempt >= MAX_ID_ATTEMPTS) throw new Error(`audit id ${id} drawn ${attempt} times`);
      id = auditId(entry.at, this.random(AUDIT_ID_RANDOM_CHARS));
    }
    const record: AuditRecord = { id, ...structuredClone(entry) };
    this.records.set(id, record);
    return structuredClone(record);
  }

  async list(query: AuditQuery): Promise<Page<AuditRecord>> {
    checkAuditRange(query);
    const before = lastIdOfAuditCursor(query.cursor, query.target);
    checkAuditAppNames(query);
    const { from, to } = auditTimeRange(query, this.clock.now(), this.options.retentionDays);
    const matching = [...this.records.values()]
      .filter(
        (r) => r.at >= from && r.at <= to && (before === undefined || r.id < before) && matches(r, query),
      )
      .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const page = pageOf(matching, query.limit, (last) => ({ target: query.target, id: last.id }));
    return { ...page, items: page.items.map((r) => structuredClone(r)) };
  }
}

function matches(record: AuditRecord, query: AuditQuery): boolean {
  const { action, appName } = query;
  return (
    (query.target === undefined || record.target === query.target) &&
    (query.actor === undefined || record.actor.name === query.actor || record.actor.id === query.actor) &&
    (action === undefined ||
      (action.endsWith('*') ? record.action.startsWith(action.slice(0, -1)) : record.action === action)) &&
    (appName === undefined || record.appName === appName) &&
    (query.appNames === undefined ||
      (record.appName !== undefined && query.appNames.includes(record.appName))) &&
    (query.onlyGrouped !== true || record.appName !== undefined)
  );
}
