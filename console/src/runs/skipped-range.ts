// A skipped run may stand for a range of its job's skipped fires (the dispatcher records a stretch of
// late fires as one run, not one run per fire): how many, and from which due time to which. Pure.

import type { Run } from '@tickring/client';

export type RangeFields = Pick<Run, 'status' | 'scheduledTime' | 'skippedCount' | 'skippedUntil'>;

export interface SkippedRange {
  /** How many fires the run stands for (2 or more). */
  readonly count: number;
  /** When the first of them was due (the run's scheduledTime). */
  readonly first: string;
  /** When the last of them was due. */
  readonly last: string;
}

/** The range a skipped run stands for; undefined for any other run and for a skipped run of one fire. */
export function skippedRange(run: RangeFields): SkippedRange | undefined {
  const count = run.skippedCount ?? 1;
  if (run.status !== 'skipped' || count <= 1) return undefined;
  return { count, first: run.scheduledTime, last: run.skippedUntil ?? run.scheduledTime };
}

/** How many scheduled fires a run stands for: a skipped range its count, any other run one. */
export function firesOf(run: RangeFields): number {
  return skippedRange(run)?.count ?? 1;
}

/** "×12": what the status badge adds for a range. */
export function rangeCountText(range: SkippedRange): string {
  return `×${range.count}`;
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

function clockParts(instant: string, timeZone: string | undefined): { date: string; time: string } {
  const key = timeZone ?? '';
  let format = clockFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      ...(timeZone === undefined ? {} : { timeZone }),
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    clockFormats.set(key, format);
  }
  const parts = format.formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    time: `${get('hour')}:${get('minute')}:${get('second')}`,
  };
}

/**
 * The range's first and last due times on the viewer's clock: "11:58:00 – 11:58:11" within one day
 * (`timeZone`'s, the viewer's by default), with the dates when it crosses midnight.
 */
export function rangeClockText(range: SkippedRange, timeZone?: string): string {
  const first = clockParts(range.first, timeZone);
  const last = clockParts(range.last, timeZone);
  return first.date === last.date
    ? `${first.time} – ${last.time}`
    : `${first.date} ${first.time} – ${last.date} ${last.time}`;
}
