/**
 * An audit record in a line, for `tickring audit`'s table: the changed fields as
 * `scheduleConf: "0 * * * * ?" → "0 0 * * * ?"`, a creation by its telling fields, a deletion as such,
 * an event (a trigger) by what it was asked and the runs it made.
 */
import type { AuditRecord } from '@tickring/client';
import { clip } from './output.js';

/** What a secret's value reads in the log. */
const REDACTED = '[redacted]';

/** Fields every change moves, left out of a summary unless nothing else changed. */
const BOOKKEEPING = new Set(['version', 'updatedAt']);

/** The fields that tell a created target (a job, a group, a user, a token), in this order. */
const TELLING = [
  'name',
  'title',
  'displayName',
  'role',
  'groups',
  'scheduleType',
  'scheduleConf',
  'executorHandler',
  'addressType',
  'expiresAt',
] as const;

/** A value in a summary: strings quoted, arrays and objects as compact JSON, each cut to `max`. */
export function formatValue(value: unknown, max = 40): string {
  if (value === undefined) return '(none)';
  if (value === REDACTED) return REDACTED;
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

type Summarized = Pick<AuditRecord, 'changes' | 'detail'>;

/** The record's change in one line of at most `max` characters. */
export function summarizeChanges(record: Summarized, max = 80): string {
  return clip(summary(record), max);
}

function summary({ changes, detail }: Summarized): string {
  const entries = Object.entries(changes ?? {});
  if (entries.length > 0 && entries.every(([, c]) => !('before' in c))) {
    const after = Object.fromEntries(entries.map(([field, c]) => [field, c.after]));
    const telling = TELLING.filter((field) => after[field] !== undefined && after[field] !== '');
    return telling.length === 0
      ? 'created'
      : `created (${telling.map((field) => `${field}: ${formatValue(after[field])}`).join(', ')})`;
  }
  if (entries.length > 0 && entries.every(([, c]) => !('after' in c))) return 'deleted';
  if (entries.length > 0) {
    const shown = entries.filter(([field]) => !BOOKKEEPING.has(field));
    return (shown.length > 0 ? shown : entries)
      .map(([field, c]) => `${field}: ${formatValue(c.before)} → ${formatValue(c.after)}`)
      .join('; ');
  }
  return detail ? eventSummary(detail) || '-' : 'no change';
}

/** An event (a trigger, a kill, a rotation): the fields it was asked with, and the runs it made. */
function eventSummary(detail: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  const request = detail.request;
  if (typeof request === 'object' && request !== null && !Array.isArray(request)) {
    for (const [field, value] of Object.entries(request)) {
      if (value === undefined || value === null || value === '') continue;
      parts.push(`${field}: ${formatValue(value)}`);
    }
  }
  const result = detail.result as { logId?: unknown; logIds?: unknown } | null | undefined;
  const runs = Array.isArray(result?.logIds)
    ? result.logIds
    : typeof result?.logId === 'number'
      ? [result.logId]
      : [];
  if (runs.length > 0) parts.push(`${runs.length === 1 ? 'run' : 'runs'} ${runs.join(', ')}`);
  return parts.join('; ');
}
