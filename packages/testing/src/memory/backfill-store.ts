import type { Backfill, BackfillQuery, BackfillStore } from '@tickring/core/backfills';
import { ConflictError, NotFoundError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import { decodeCursor, pageOf } from './cursor.js';

/** Backfills in memory: one active backfill per job, every update conditional on the revision. */
export class MemoryBackfillStore implements BackfillStore {
  /** The stored backfills by id (a test may set one directly). */
  readonly backfills = new Map<string, Backfill>();

  async create(backfill: Backfill): Promise<void> {
    const active = this.activeOf(backfill.jobId);
    if (active) throw activeConflict(backfill.jobId, active.id);
    if (this.backfills.has(backfill.id)) throw new ConflictError(`backfill ${backfill.id} already exists`);
    this.backfills.set(backfill.id, structuredClone(backfill));
  }

  async get(id: string): Promise<Backfill | undefined> {
    const backfill = this.backfills.get(id);
    return backfill && structuredClone(backfill);
  }

  async listByJob(jobId: number, query: BackfillQuery): Promise<Page<Backfill>> {
    const before = decodeCursor(query.cursor)?.id;
    const sorted = [...this.backfills.values()]
      .filter((b) => b.jobId === jobId && (typeof before !== 'string' || b.id < before))
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .map((b) => structuredClone(b));
    return pageOf(sorted, query.limit, (last) => ({ id: last.id }));
  }

  async listActive(): Promise<Backfill[]> {
    return [...this.backfills.values()].filter((b) => b.endedAt === undefined).map((b) => structuredClone(b));
  }

  async update(next: Backfill, expectedRevision: number): Promise<void> {
    const current = this.backfills.get(next.id);
    if (!current) throw new NotFoundError(`backfill ${next.id} does not exist`);
    if (current.revision !== expectedRevision) {
      throw new ConflictError(
        `backfill ${next.id} is at revision ${current.revision}, not ${expectedRevision}`,
      );
    }
    this.backfills.set(next.id, structuredClone(next));
  }

  private activeOf(jobId: number): Backfill | undefined {
    return [...this.backfills.values()].find((b) => b.jobId === jobId && b.endedAt === undefined);
  }
}

export function activeConflict(jobId: number, activeId: string): ConflictError {
  return new ConflictError(
    `job ${jobId} has an active backfill, ${activeId}: cancel it or wait for it to end before starting another`,
  );
}
