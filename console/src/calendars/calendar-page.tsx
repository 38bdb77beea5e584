import type { Calendar } from '@tickring/client';
import { useState } from 'preact/hooks';
import { Link, useSearch } from 'wouter-preact';
import { Empty, ErrorNotice, PageHeader, Time } from '../components/common';
import { api, describeError, type ShownError } from '../lib/api';
import { useLoad } from '../lib/hooks';
import { workingDaysText } from './calendars-page';
import { dayText, type MonthGrid, monthGrids, yearRange } from './month-grid';
import './calendars.css';

const WEEK_HEAD = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** One calendar: a year of its days month by month (working, weekend, holiday, make-up day), and its lists. */
export function CalendarPage({ params }: { params: { id: string } }) {
  const id = params.id;
  const search = useSearch();
  // `?year=2031` opens that year (a link to a holiday season); this year otherwise.
  const [year, setYear] = useState(() => {
    const asked = Number(new URLSearchParams(search).get('year'));
    return Number.isInteger(asked) && asked >= 1970 && asked <= 2199 ? asked : new Date().getFullYear();
  });
  const calendar = useLoad(() => api().getCalendar({ path: { id } }), `calendar ${id}`);
  const days = useLoad(
    () => api().listCalendarDays({ path: { id }, query: yearRange(year) }),
    `days ${id} ${year}`,
  );
  const [exportError, setExportError] = useState<ShownError | undefined>();

  const download = async () => {
    setExportError(undefined);
    try {
      const text = await api().exportCalendar({ path: { id } });
      const url = URL.createObjectURL(new Blob([text], { type: 'text/calendar' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${id}.ics`;
      link.click();
      URL.revokeObjectURL(url);
    } catch (err) {
      setExportError(describeError(err));
    }
  };

  if (calendar.error?.status === 404) {
    return (
      <Empty title="No such calendar">
        <p>
          <Link href="/calendars">All calendars</Link>
        </p>
      </Empty>
    );
  }
  const c = calendar.data;
  return (
    <>
      <PageHeader title={c ? c.name : 'Calendar'}>
        <button type="button" class="secondary" onClick={() => void download()}>
          Export .ics
        </button>
      </PageHeader>
      <p>
        <Link href="/calendars">All calendars</Link>
      </p>
      <ErrorNotice error={calendar.error ?? exportError} />
      {c && <CalendarFacts calendar={c} />}
      <section aria-labelledby="calendar-year">
        <div class="calendar-year-bar">
          <button
            type="button"
            class="secondary small"
            onClick={() => setYear((y) => y - 1)}
            aria-label={`Year ${year - 1}`}
          >
            ← {year - 1}
          </button>
          <h2 id="calendar-year">{year}</h2>
          <button
            type="button"
            class="secondary small"
            onClick={() => setYear((y) => y + 1)}
            aria-label={`Year ${year + 1}`}
          >
            {year + 1} →
          </button>
        </div>
        <Legend />
        <ErrorNotice error={days.error} />
        {days.data === undefined && days.loading && <p aria-busy="true">Reading the days…</p>}
        {days.data && (
          <div class="calendar-months">
            {monthGrids(days.data.days).map((grid) => (
              <Month key={grid.name} grid={grid} />
            ))}
          </div>
        )}
      </section>
      {c && <Lists calendar={c} />}
    </>
  );
}

function CalendarFacts({ calendar }: { calendar: Calendar }) {
  return (
    <dl class="calendar-facts">
      <dt>Id</dt>
      <dd>
        <code>{calendar.id}</code>
      </dd>
      <dt>Time zone</dt>
      <dd>{calendar.timeZone}</dd>
      <dt>Working days</dt>
      <dd>{workingDaysText(calendar.workingDays)}</dd>
      <dt>Version</dt>
      <dd>
        {calendar.version}, by {calendar.updatedBy} <Time at={calendar.updatedAt} />
      </dd>
      {calendar.description !== '' && (
        <>
          <dt>Notes</dt>
          <dd>{calendar.description}</dd>
        </>
      )}
    </dl>
  );
}

function Legend() {
  return (
    <ul class="calendar-legend" aria-label="Legend">
      <li>
        <span class="day-swatch workday" aria-hidden="true" /> working day
      </li>
      <li>
        <span class="day-swatch weekend" aria-hidden="true" /> not a working weekday
      </li>
      <li>
        <span class="day-swatch holiday" aria-hidden="true">
          ×
        </span>{' '}
        holiday
      </li>
      <li>
        <span class="day-swatch makeup" aria-hidden="true">
          +
        </span>{' '}
        make-up workday
      </li>
    </ul>
  );
}

const CELL_CLASS: Readonly<Record<string, string>> = {
  WORKDAY: 'workday',
  WEEKEND: 'weekend',
  HOLIDAY: 'holiday',
  MAKEUP_DAY: 'makeup',
};

function Month({ grid }: { grid: MonthGrid }) {
  return (
    <table class="calendar-month">
      <caption>
        {grid.name} <span class="muted small">({grid.allowed} working days)</span>
      </caption>
      <thead>
        <tr>
          {WEEK_HEAD.map((d) => (
            <th key={d} scope="col" abbr={d}>
              {d.slice(0, 2)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {grid.weeks.map((week) => (
          <tr key={week.find((day) => day !== null)?.date}>
            {week.map((day, d) =>
              day ? (
                <td
                  key={day.date}
                  class={`day ${CELL_CLASS[day.reason] ?? ''}`}
                  title={dayText(day)}
                  aria-label={dayText(day)}
                >
                  {Number(day.date.slice(8))}
                  {day.reason === 'HOLIDAY' && <span aria-hidden="true">×</span>}
                  {day.reason === 'MAKEUP_DAY' && <span aria-hidden="true">+</span>}
                </td>
              ) : (
                <td key={`empty-${d}`} class="day empty-day" />
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Lists({ calendar }: { calendar: Calendar }) {
  return (
    <div class="calendar-lists">
      <DayTable
        id="calendar-excluded"
        title="Holidays"
        dayHeader="Days"
        rows={calendar.excluded.map((e) => ({
          key: e.from,
          days: e.to ? `${e.from} – ${e.to}` : e.from,
          label: e.label,
        }))}
      />
      <DayTable
        id="calendar-included"
        title="Make-up workdays"
        dayHeader="Day"
        rows={calendar.included.map((e) => ({ key: e.date, days: e.date, label: e.label }))}
      />
    </div>
  );
}

/** One of a calendar's lists of days (holidays, make-up workdays) with their labels. */
function DayTable(props: {
  id: string;
  title: string;
  dayHeader: string;
  rows: readonly { key: string; days: string; label?: string | null | undefined }[];
}) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>
        {props.title} ({props.rows.length})
      </h2>
      {props.rows.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{props.dayHeader}</th>
                <th scope="col">Label</th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr key={row.key}>
                  <td>{row.days}</td>
                  <td>{row.label ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
