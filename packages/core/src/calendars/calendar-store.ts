import type { Page } from '../jobs/job-store.js';
import type { Calendar } from './calendar.js';

export interface CalendarQuery {
  readonly limit: number;
  readonly cursor?: string;
}

/**
 * Calendars, by id. Every change is conditional on the version the writer read (optimistic
 * concurrency): a writer that lost a race gets a ConflictError and nothing is written.
 */
export interface CalendarStore {
  /** Stores a new calendar (version 1); ConflictError when the id exists. */
  create(calendar: Calendar): Promise<void>;
  /** Strongly consistent. */
  get(id: string): Promise<Calendar | undefined>;
  /** By id, page by page (a page may come back short, with a cursor). */
  list(query: CalendarQuery): Promise<Page<Calendar>>;
  /**
   * Replaces the calendar with `next` (whose version is `expectedVersion` + 1) if the stored one is
   * still at `expectedVersion`: ConflictError when it is not, NotFoundError when it is gone.
   */
  update(next: Calendar, expectedVersion: number): Promise<void>;
  /** Deletes the calendar if it is still at `expectedVersion`: ConflictError / NotFoundError as update. */
  delete(id: string, expectedVersion: number): Promise<void>;
}
