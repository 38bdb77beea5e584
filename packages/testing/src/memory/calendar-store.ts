import type { Calendar, CalendarQuery, CalendarStore } from '@tickring/core/calendars';
import { ConflictError, NotFoundError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import { decodeCursor, pageOf } from './cursor.js';

/** Calendars in memory, each write conditional on the version as the adapters' are. */
export class MemoryCalendarStore implements CalendarStore {
  /** The stored calendars by id (a test may set one directly). */
  readonly calendars = new Map<string, Calendar>();

  async create(calendar: Calendar): Promise<void> {
    if (this.calendars.has(calendar.id)) throw new ConflictError(`calendar ${calendar.id} already exists`);
    this.calendars.set(calendar.id, structuredClone(calendar));
  }

  async get(id: string): Promise<Calendar | undefined> {
    const calendar = this.calendars.get(id);
    return calendar && structuredClone(calendar);
  }

  async list(query: CalendarQuery): Promise<Page<Calendar>> {
    const after = decodeCursor(query.cursor)?.id;
    const sorted = [...this.calendars.values()]
      .filter((c) => typeof after !== 'string' || c.id > after)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((c) => structuredClone(c));
    return pageOf(sorted, query.limit, (last) => ({ id: last.id }));
  }

  async update(next: Calendar, expectedVersion: number): Promise<void> {
    this.expect(next.id, expectedVersion);
    this.calendars.set(next.id, structuredClone(next));
  }

  async delete(id: string, expectedVersion: number): Promise<void> {
    this.expect(id, expectedVersion);
    this.calendars.delete(id);
  }

  private expect(id: string, expectedVersion: number): void {
    const current = this.calendars.get(id);
    if (!current) throw new NotFoundError(`calendar ${id} does not exist`);
    if (current.version !== expectedVersion) {
      throw new ConflictError(`calendar ${id} is at version ${current.version}, not ${expectedVersion}`);
    }
  }
}
