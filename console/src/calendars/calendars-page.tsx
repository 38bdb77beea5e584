import type { Calendar } from '@tickring/client';
import { Link } from 'wouter-preact';
import { Empty, ErrorNotice, PageHeader, Pager, Time } from '../components/common';
import { api } from '../lib/api';
import { useCursor, useLoad } from '../lib/hooks';
import './calendars.css';

/** Business calendars: their zone, working weekdays, holidays and make-up days; each opens as a year. */
export function CalendarsPage() {
  const { cursor, next, previous } = useCursor();
  const calendars = useLoad(
    () => api().listCalendars({ query: { limit: 50, ...(cursor ? { cursor } : {}) } }),
    JSON.stringify([cursor]),
  );
  const items = calendars.data?.items ?? [];
  return (
    <>
      <PageHeader title="Calendars" />
      <ErrorNotice error={calendars.error} />
      {calendars.data === undefined && calendars.loading && <p aria-busy="true">Reading the calendars…</p>}
      {calendars.data && items.length === 0 && (
        <Empty title={cursor ? 'No more calendars' : 'No calendars yet'}>
          <p>
            A calendar says which days are working days: its working weekdays, holidays taken out, make-up
            days put back. Import one from an .ics file with <code>tickring calendars import</code> or{' '}
            <code>POST /v1/calendars/import</code>.
          </p>
        </Empty>
      )}
      {items.length > 0 && (
        <div class="table-wrap">
          <table class="calendars-table">
            <thead>
              <tr>
                <th scope="col">Calendar</th>
                <th scope="col" class="hide-narrow">
                  Time zone
                </th>
                <th scope="col">Working days</th>
                <th scope="col" class="num">
                  Holidays
                </th>
                <th scope="col" class="num hide-narrow">
                  Make-up days
                </th>
                <th scope="col" class="hide-narrow">
                  Changed
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((calendar) => (
                <CalendarRow key={calendar.id} calendar={calendar} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager nextCursor={calendars.data?.nextCursor} onNext={next} onPrevious={previous} />
    </>
  );
}

function CalendarRow({ calendar }: { calendar: Calendar }) {
  return (
    <tr>
      <td>
        <Link href={`/calendars/${encodeURIComponent(calendar.id)}`}>{calendar.name}</Link>
        <div class="muted small">{calendar.id}</div>
      </td>
      <td class="hide-narrow">{calendar.timeZone}</td>
      <td>{workingDaysText(calendar.workingDays)}</td>
      <td class="num">{calendar.excluded.length}</td>
      <td class="num hide-narrow">{calendar.included.length}</td>
      <td class="hide-narrow">
        <Time at={calendar.updatedAt} /> <span class="muted">v{calendar.version}</span>
      </td>
    </tr>
  );
}

const SHORT: Readonly<Record<string, string>> = {
  MON: 'Mon',
  TUE: 'Tue',
  WED: 'Wed',
  THU: 'Thu',
  FRI: 'Fri',
  SAT: 'Sat',
  SUN: 'Sun',
};

/** Mon–Fri for a run of days, else the days listed. */
export function workingDaysText(days: readonly string[]): string {
  if (days.length === 0) return 'none';
  const order = Object.keys(SHORT);
  const indexes = days.map((d) => order.indexOf(d));
  const consecutive = indexes.every((i, k) => k === 0 || i === (indexes[k - 1] ?? -2) + 1);
  if (consecutive && days.length > 2) return `${SHORT[days[0] as string]}–${SHORT[days.at(-1) as string]}`;
  return days.map((d) => SHORT[d] ?? d).join(', ');
}
