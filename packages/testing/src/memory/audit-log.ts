import { randomBytes } from 'node:crypto';
import {
  AUDIT_DEFAULT_DAYS,
  type AuditEntry,
  type AuditLog,
  type AuditQuery,
  type AuditRecord,
  MAX_AUDIT_APP_NAMES,
} from '@tickring/core/audit';
import { type Clock, systemClock, ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import { decodeCursor, pageOf } from './cursor.js';

const DAY_MS = 86_400_000;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MAX_ID_ATTEMPTS = 3;
const ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

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
    let id = auditId(entry.at, this.random(16));
    // Never overwrites a record: an id drawn twice is drawn again (as often as the DynamoDB log tries).
    for (let attempt = 1; this.records.has(id); attempt++) {
      if (attempt >= MAX_ID_ATTEMPTS) throw new Error(`audit id ${id} drawn ${attempt} times`);
      id = auditId(entry.at, this.random(16));
    }
    const record: AuditRecord = { id, ...structuredClone(entry) };
    this.records.set(id, record);
    return structuredClone(record);
  }

  async list(query: AuditQuery): Promise<Page<AuditRecord>> {
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
      throw new ValidationError('from must not be after to', 'from');
    }
    const before = positionOf(query.cursor, query.target);
    if (query.appNames !== undefined && query.appNames.length > MAX_AUDIT_APP_NAMES) {
      throw new RangeError(`at most ${MAX_AUDIT_APP_NAMES} appNames; got ${query.appNames.length}`);
    }
    const now = this.clock.now();
    const to = query.to ?? now;
    const from = Math.max(
      query.from ?? to - AUDIT_DEFAULT_DAYS * DAY_MS,
      now - this.options.retentionDays * DAY_MS,
    );
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

/** The id a cursor stopped at; it must be a cursor of this list (of every record, or of this target). */
function positionOf(cursor: string | undefined, target: string | undefined): string | undefined {
  const position = decodeCursor(cursor);
  if (position === undefined) return undefined;
  if (position.target !== target || typeof position.id !== 'string' || !ID_PATTERN.test(position.id)) {
    throw new ValidationError(
      target === undefined
        ? 'cursor is not a cursor of this list (a list of all records) this API returned'
        : `cursor is not a cursor of this list (the records of ${target}) this API returned`,
      'cursor',
    );
  }
  return position.id;
}

/** A ULID: 10 characters of epoch ms, 16 random (Crockford base32), sorting by time. */
function auditId(atMs: number, random: Uint8Array): string {
  let rest = Math.max(0, Math.min(Math.floor(atMs), 2 ** 48 - 1));
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  let id = time;
  for (let i = 0; i < 16; i++) id += CROCKFORD[(random[i] ?? 0) & 31];
  return id;
}
