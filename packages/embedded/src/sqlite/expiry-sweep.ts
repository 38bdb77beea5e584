import type { Clock } from '@tickring/core/common';
import type { EmbeddedDatabase } from './database.js';

/** How often a store deletes its expired rows, at most. */
const SWEEP_EVERY_MS = 60_000;

/**
 * DynamoDB's TTL for an SQLite store: rows whose `expires_at` (epoch seconds, the same value the
 * DynamoDB adapter writes to its TTL attribute) has passed are deleted, by a sweep the store runs
 * before a write at most once a minute (before: a sweep that fails fails the call with nothing
 * written). Like the TTL it is lazy: a reader that must not see an expired row filters on
 * `expires_at` itself, as the DynamoDB adapter does.
 */
export class ExpirySweep {
  private nextSweepAt = Number.NEGATIVE_INFINITY;

  /** `tables`: each table with an `expires_at` column the sweep deletes from. */
  constructor(
    private readonly database: EmbeddedDatabase,
    private readonly tables: readonly string[],
    private readonly clock: Clock,
  ) {}

  /** Deletes the expired rows when the last sweep is a minute old (or none ran yet). */
  sweepIfDue(): void {
    const now = this.clock.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_EVERY_MS;
    const nowSeconds = Math.floor(now / 1000);
    this.database.transaction(() => {
      for (const table of this.tables) {
        this.database.db.prepare(`DELETE FROM ${table} WHERE expires_at < ?`).run(nowSeconds);
      }
    });
  }
}
