export {
  type AdminCalendarsDeps,
  type CalendarImport,
  calendarImportOf,
  createCalendar,
  deleteCalendar,
  exportCalendar,
  getCalendar,
  importCalendar,
  listCalendarDays,
  listCalendars,
  updateCalendar,
} from './admin-calendars.js';
