export {
  CALENDAR_ID,
  CALENDAR_LIMITS,
  type Calendar,
  type CalendarDay,
  type CalendarSpec,
  DAY_REASONS,
  type DayReason,
  DEFAULT_WORKING_DAYS,
  type ExcludedDates,
  type IncludedDate,
  WEEKDAYS,
  type Weekday,
} from './calendar.js';
export {
  addDays,
  CalendarRules,
  calendarAllowsDate,
  calendarAllowsInstant,
  calendarDays,
  isIsoDate,
  localDateOf,
  weekdayOf,
} from './calendar-rules.js';
export type { CalendarQuery, CalendarStore } from './calendar-store.js';
export { calendarIdProblem, parseCalendarSpec } from './calendar-validation.js';
export { calendarToIcs, ICS_LIMITS, type IcsContent, icsHorizon, parseIcs } from './ics.js';
