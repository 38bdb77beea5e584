// A job's edit history from the audit log: what each record did, in words, and its changed fields
// before → after (without the fields that move by themselves with every write). Pure.

import type { AuditRecord } from '@tickring/client';
import { FIELDS, type FormField, percentText } from './job-form';

/** Fields the server moves on its own (version, timestamps, the next fire): not edits. */
const DERIVED = new Set([
  'id',
  'version',
  'createdAt',
  'updatedAt',
  'scheduleRevision',
  'triggerNextTime',
  'triggerLastTime',
  'glueUpdatetime',
]);

const ACTIONS: Record<string, string> = {
  'job.create': 'Created',
  'job.update': 'Changed',
  'job.start': 'Schedule on',
  'job.stop': 'Schedule off',
  'job.trigger': 'Ran once',
  'job.delete': 'Deleted',
};

export function actionText(action: string): string {
  return ACTIONS[action] ?? action;
}

export interface ChangeRow {
  readonly field: string;
  readonly label: string;
  /** undefined: the field was not there (a creation). */
  readonly before: string | undefined;
  /** undefined: the field is gone (a deletion). */
  readonly after: string | undefined;
}

/** A recorded value in words: `(empty)`, `none`, a list joined by commas, JSON for objects. */
export function valueText(value: unknown): string {
  if (value === null) return 'none';
  if (value === '') return '(empty)';
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map((v) => valueText(v)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A recorded value as the editor shows it, where its input reads it differently from the API (a share as a percentage). */
function fieldValueText(field: string, value: unknown): string {
  if (field === 'keepSuccessfulRuns' && typeof value === 'number') return `${percentText(value)} %`;
  return valueText(value);
}

/** The changed fields of a record worth showing, in the editor's order, with the editor's labels. */
export function changeRows(record: Pick<AuditRecord, 'changes'>): ChangeRow[] {
  const order = Object.keys(FIELDS);
  const changes = record.changes as Record<string, { before?: unknown; after?: unknown }>;
  return Object.entries(changes)
    .filter(([field]) => !DERIVED.has(field))
    .sort(([a], [b]) => {
      const x = order.indexOf(a);
      const y = order.indexOf(b);
      return (x < 0 ? order.length : x) - (y < 0 ? order.length : y) || a.localeCompare(b);
    })
    .map(([field, change]) => ({
      field,
      label: field in FIELDS ? FIELDS[field as FormField].label : field,
      before: 'before' in change ? fieldValueText(field, change.before) : undefined,
      after: 'after' in change ? fieldValueText(field, change.after) : undefined,
    }));
}

/** The runs a trigger record made (its detail's result), for links. */
export function triggeredLogIds(record: Pick<AuditRecord, 'action' | 'detail'>): number[] {
  if (record.action !== 'job.trigger' || !record.detail) return [];
  const result = (record.detail as { result?: { logIds?: unknown; logId?: unknown } }).result;
  if (Array.isArray(result?.logIds))
    return result.logIds.filter((id): id is number => typeof id === 'number');
  return typeof result?.logId === 'number' ? [result.logId] : [];
}

/** A trigger's overrides in words ("parameter: x; executors: a, b"), or undefined. */
export function triggerOverrides(record: Pick<AuditRecord, 'action' | 'detail'>): string | undefined {
  if (record.action !== 'job.trigger' || !record.detail) return undefined;
  const request = (record.detail as { request?: { executorParam?: unknown; addressList?: unknown } }).request;
  if (!request) return undefined;
  const parts: string[] = [];
  if (request.executorParam !== undefined && request.executorParam !== null) {
    parts.push(`parameter: ${valueText(request.executorParam)}`);
  }
  if (request.addressList !== undefined && request.addressList !== null && request.addressList !== '') {
    parts.push(`executors: ${valueText(request.addressList)}`);
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}
