import type { Calendar } from '@tickring/client';
import { Link } from 'wouter-preact';
import { ErrorNotice } from '../components/common';
import { api } from '../lib/api';
import { useLoad } from '../lib/hooks';
import './jobs.css';

/** Most calendars read for the picker (5 pages of 100). */
const MAX_CALENDARS = 500;
/** At most this many in each list (the API's limit). */
const PER_LIST = 10;

async function allCalendars(): Promise<Calendar[]> {
  const found: Calendar[] = [];
  for await (const calendar of api().paginate('listCalendars', { query: { limit: 100 } })) {
    found.push(calendar);
    if (found.length >= MAX_CALENDARS) break;
  }
  return found;
}

export type PickedCalendars = { only: string[]; exclude: string[] };

const LISTS = [
  { list: 'only', title: 'Only on working days of', hint: 'every calendar ticked' },
  { list: 'exclude', title: 'Never on dates excluded by', hint: 'its holidays and ranges' },
] as const;

/**
 * The calendars a schedule follows: a checkbox per calendar in each list (only / exclude). Ids
 * picked that no calendar has any more stay listed, so they can be taken out.
 */
export function CalendarPicker({
  value,
  onChange,
  disabled,
  problems,
  help,
}: {
  value: PickedCalendars;
  onChange: (value: PickedCalendars) => void;
  disabled: boolean;
  problems: readonly string[];
  help: string;
}) {
  const loaded = useLoad(allCalendars, 'calendars-picker');
  const calendars = loaded.data ?? [];
  const known = new Set(calendars.map((c) => c.id));
  const invalid = problems.length > 0;
  const toggle = (list: keyof PickedCalendars, id: string, on: boolean) =>
    onChange({
      ...value,
      [list]: on ? [...value[list].filter((v) => v !== id), id] : value[list].filter((v) => v !== id),
    });

  return (
    <fieldset
      class={`field calendar-picker${invalid ? ' invalid' : ''}`}
      id="job-calendars"
      aria-describedby="job-calendars-help"
      tabIndex={-1}
    >
      <legend>Calendars</legend>
      <small id="job-calendars-help" class="help">
        {help}
      </small>
      <ErrorNotice error={loaded.error} />
      {loaded.data && calendars.length === 0 && value.only.length + value.exclude.length === 0 && (
        <p class="muted">
          No calendars yet: see <Link href="/calendars">Calendars</Link>.
        </p>
      )}
      {(calendars.length > 0 || value.only.length + value.exclude.length > 0) && (
        <div class="grid">
          {LISTS.map(({ list, title, hint }) => {
            const missing = value[list].filter((id) => !known.has(id));
            const full = value[list].length >= PER_LIST;
            return (
              <fieldset key={list} class="calendar-list">
                <legend>
                  {title} <small class="muted">({hint})</small>
                </legend>
                {calendars.map((c) => {
                  const checked = value[list].includes(c.id);
                  return (
                    <label key={c.id}>
                      <input
                        type="checkbox"
                        name={`calendars-${list}`}
                        checked={checked}
                        disabled={disabled || (full && !checked)}
                        onChange={(e) => toggle(list, c.id, e.currentTarget.checked)}
                      />
                      {c.name} <small class="muted mono">{c.id}</small>{' '}
                      <small class="muted">({c.timeZone})</small>
                    </label>
                  );
                })}
                {missing.map((id) => (
                  <label key={id}>
                    <input
                      type="checkbox"
                      checked
                      disabled={disabled}
                      onChange={() => toggle(list, id, false)}
                    />
                    <span class="mono">{id}</span> <small class="muted">(no such calendar)</small>
                  </label>
                ))}
              </fieldset>
            );
          })}
        </div>
      )}
      {invalid && (
        <small id="job-calendars-error" class="field-error" role="alert">
          {problems.join(' ')}
        </small>
      )}
    </fieldset>
  );
}
