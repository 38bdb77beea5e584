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
export {
  type AllowedFire,
  allowedEffectiveFire,
  allowedFireFrom,
  CALENDAR_SEARCH_DAYS,
  type CalendarBlock,
  type CalendarGate,
  calendarBlockOf,
  calendarGate,
  calendarsAllow,
  type GatedFires,
  gatedFireTimes,
  MAX_CALENDARS_PER_LIST,
  SCHEDULE_CALENDAR_LISTS,
  type ScheduleCalendarList,
  type ScheduleCalendars,
  scheduleCalendarIds,
  startOfDate,
} from './calendar-schedule.js';
export type { CalendarQuery, CalendarStore } from './calendar-store.js';
export { calendarIdProblem, parseCalendarSpec } from './calendar-validation.js';
export { calendarToIcs, ICS_LIMITS, type IcsContent, icsHorizon, parseIcs } from './ics.js';
