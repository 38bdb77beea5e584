import type { Calendar } from '../calendars/calendar.js';
import { type CalendarGate, calendarGate, scheduleCalendarIds } from '../calendars/calendar-schedule.js';
import type { CalendarStore } from '../calendars/calendar-store.js';
import type { Job } from '../jobs/job.js';

/**
 * The calendars read in one pass over many jobs (a tick's iteration, over every shard; a restart's
 * re-plan): many jobs share a calendar, so each is read at most once per pass, and a change is seen
 * by the next pass. Without a store, a job that names calendars is judged as if each were missing
 * (see `calendarGate`).
 */
export class CalendarReads {
  private readonly reads = new Map<string, Promise<Calendar | undefined>>();

  constructor(private readonly store: Pick<CalendarStore, 'get'> | undefined) {}

  async gateOf(job: Pick<Job, 'calendars'>): Promise<CalendarGate | undefined> {
    const ids = scheduleCalendarIds(job.calendars);
    if (ids.length === 0) return undefined;
    const read = await Promise.all(ids.map(async (id) => [id, await this.read(id)] as const));
    return calendarGate(job.calendars, new Map(read));
  }

  private read(id: string): Promise<Calendar | undefined> {
    let calendar = this.reads.get(id);
    if (!calendar) {
      calendar = this.store ? this.store.get(id) : Promise.resolve(undefined);
      this.reads.set(id, calendar);
    }
    return calendar;
  }
}
