import type { Page } from '../jobs/job-store.js';
import type { Backfill } from './backfill.js';

export interface BackfillQuery {
  readonly limit: number;
  readonly cursor?: string;
}

/**
 * Backfills, by id and by job. A job has at most one active backfill (one without `endedAt`: running,
 * or cancelled with fires still running); every change is conditional on the revision the writer read,
 * so two sweeps never start the same fire twice.
 */
export interface BackfillStore {
  /** Stores a new backfill; ConflictError (naming the active one) when its job has an active backfill. */
  create(backfill: Backfill): Promise<void>;
  /** Strongly consistent. */
  get(id: string): Promise<Backfill | undefined>;
  /** A job's backfills, newest first, page by page. */
  listByJob(jobId: number, query: BackfillQuery): Promise<Page<Backfill>>;
  /** Every active backfill (what the sweep advances), strongly consistent. */
  listActive(): Promise<Backfill[]>;
  /**
   * Replaces the backfill with `next` (whose revision is `expectedRevision` + 1) if the stored one is
   * still at `expectedRevision`: ConflictError when it is not, NotFoundError when it is gone. A `next`
   * with `endedAt` is no longer active: its job may start another.
   */
  update(next: Backfill, expectedRevision: number): Promise<void>;
}
