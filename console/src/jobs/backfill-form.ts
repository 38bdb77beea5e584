// The backfill dialog's form (a past range, the parallelism, the rate) as a request, and a
// backfill's progress in words. Pure.

import type { Backfill, BackfillRequest } from '@tickring/client';
import type { ShownError } from '../lib/api';
import { fromLocalInput } from '../lib/format';

/** What the dialog's inputs hold: `datetime-local` values (the viewer's zone), numbers as typed. */
export interface BackfillForm {
  from: string;
  to: string;
  parallelism: string;
  /** Empty: as fast as the parallelism allows. */
  ratePerMinute: string;
}

export type BackfillField = keyof BackfillForm;

/** The server's limits (BACKFILL_LIMITS): shown in the help, checked before asking. */
export const BACKFILL_MAX_PARALLELISM = 100;
export const BACKFILL_MAX_RATE = 6000;

/**
 * The form as a request, or every problem found before asking the server (in its error shape, so
 * they show beside their fields the same way).
 */
export function backfillRequest(form: BackfillForm): { body: BackfillRequest } | { error: ShownError } {
  const problems: { field: BackfillField; message: string }[] = [];
  const from = fromLocalInput(form.from.trim());
  const to = fromLocalInput(form.to.trim());
  if (from === undefined) problems.push({ field: 'from', message: 'Enter the range’s start.' });
  if (to === undefined) problems.push({ field: 'to', message: 'Enter the range’s end.' });
  if (from !== undefined && to !== undefined && Date.parse(to) <= Date.parse(from))
    problems.push({ field: 'to', message: 'The end must be after the start.' });
  const whole = (field: BackfillField, raw: string, max: number): number | undefined => {
    if (/^\d+$/.test(raw.trim()) && Number(raw) >= 1 && Number(raw) <= max) return Number(raw);
    problems.push({ field, message: `Enter a whole number from 1 to ${max}.` });
    return undefined;
  };
  const parallelism = whole('parallelism', form.parallelism, BACKFILL_MAX_PARALLELISM);
  const rate =
    form.ratePerMinute.trim() === ''
      ? undefined
      : whole('ratePerMinute', form.ratePerMinute, BACKFILL_MAX_RATE);
  const [first] = problems;
  if (first) {
    return { error: { message: problems.map((p) => p.message).join(' '), field: first.field, problems } };
  }
  return {
    body: {
      from: from as string,
      to: to as string,
      parallelism: parallelism as number,
      ...(rate === undefined ? {} : { ratePerMinute: rate }),
    },
  };
}

/** How far a backfill got: finished fires of its total, as a share for a progress bar, and in words. */
export function backfillProgress(backfill: Backfill): { done: number; share: number; text: string } {
  const done = backfill.succeeded + backfill.failed;
  const share = backfill.total === 0 ? 1 : done / backfill.total;
  const parts = [`${done} of ${backfill.total} done`];
  if (backfill.failed > 0) parts.push(`${backfill.failed} failed`);
  if (backfill.running > 0) parts.push(`${backfill.running} running`);
  return { done, share, text: parts.join(', ') };
}

/** A backfill's state in words: running, completed, cancelled by whom, or stopped by the system and why. */
export function backfillStateText(backfill: Backfill): string {
  if (backfill.state === 'RUNNING') return 'running';
  if (backfill.state === 'COMPLETED') return backfill.failed > 0 ? 'completed with failures' : 'completed';
  if (backfill.stopReason) return `stopped: ${backfill.stopReason}`;
  return `cancelled${backfill.cancelledBy ? ` by ${backfill.cancelledBy}` : ''}`;
}
