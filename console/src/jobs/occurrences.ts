// A job's upcoming fires and their one-off exceptions (skip, move): the window a move may go to, the
// words for each, and where passed exceptions go on the runs timeline. Pure.

import type { OccurrenceException, OccurrenceList } from '@tickring/client';

export type Occurrence = OccurrenceList['occurrences'][number];

const pad2 = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` value in the viewer's zone, to the second (fires may be seconds apart). */
export function toLocalInputSeconds(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}T${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** When an occurrence really fires as its neighbours see it: its move's time, else its own. */
function effectiveTime(occurrence: Occurrence): string {
  return occurrence.fireAt ?? occurrence.time;
}

/**
 * Where the occurrence at `index` may move to: strictly after the fire before it (or now, for the
 * first listed) and before the fire after it (none known: the last listed). The server decides; this
 * is the hint shown beside the input.
 */
export function moveWindow(
  occurrences: readonly Occurrence[],
  index: number,
): { readonly after: string | null; readonly before: string | null } {
  const previous = occurrences[index - 1];
  const next = occurrences[index + 1];
  return {
    after: previous ? effectiveTime(previous) : null,
    before: next ? effectiveTime(next) : null,
  };
}

/** "skipped (why), by ana" / "moved to … (why), by ana": an exception in words (`format` shows a time). */
export function exceptionText(exception: OccurrenceException, format: (iso: string) => string): string {
  const why = exception.reason ? ` (${exception.reason})` : '';
  const what = exception.action === 'skip' ? 'skipped' : `moved to ${format(exception.to ?? exception.at)}`;
  return `${what}${why}, by ${exception.by}`;
}

/** An exception drawn on the runs timeline: a skip at its time, a move from its time to its new one. */
export interface ExceptionMark {
  readonly exception: OccurrenceException;
  readonly at: number;
  /** A move's new time; the same as `at` for a skip. */
  readonly to: number;
}

/** The exceptions whose occurrence or move falls within [from, to] (the timeline's span), oldest first. */
export function exceptionMarks(
  exceptions: readonly OccurrenceException[],
  from: number,
  to: number,
): ExceptionMark[] {
  return exceptions
    .map((exception) => {
      const at = Date.parse(exception.at);
      return { exception, at, to: exception.to === null ? at : Date.parse(exception.to) };
    })
    .filter((m) => Number.isFinite(m.at) && Math.max(m.at, m.to) >= from && Math.min(m.at, m.to) <= to)
    .sort((a, b) => a.at - b.at);
}

/** The move of the occurrence a run was scheduled for, if it was moved (the run keeps the original time). */
export function moveOf(
  exceptions: readonly OccurrenceException[],
  scheduledTime: string,
): OccurrenceException | undefined {
  const at = Date.parse(scheduledTime);
  return exceptions.find((e) => e.action === 'move' && Date.parse(e.at) === at);
}
