/**
 * What the backfill use-cases rely on from a BackfillStore, run over each adapter: in memory and on
 * SQLite (unit: packages/testing/src/memory/backfill-store.contract.test.ts,
 * packages/embedded/src/sqlite/backfill-store.contract.test.ts) and on DynamoDB Local (integration,
 * packages/aws/src/dynamodb/backfill-store.contract.int.test.ts). Each test gets a fresh, empty store.
 */

import { type Backfill, type BackfillStore, newBackfillId } from '@tickring/core/backfills';
import { ConflictError, NotFoundError } from '@tickring/core/common';
import { describe, expect, it } from 'vitest';
import { allPages, PAGE_SIZES, refusal } from './pages.js';

const T0 = 1_900_000_000_000;

/** A running backfill of job 7 with every field filled, changed by `fields`. */
export function testBackfill(fields: Partial<Backfill> = {}): Backfill {
  const jobId = fields.jobId ?? 7;
  const createdAt = fields.createdAt ?? T0;
  return {
    id: newBackfillId(jobId, createdAt, () => 0.5),
    jobId,
    appName: 'orders',
    from: T0 - 3_600_000,
    to: T0,
    parallelism: 2,
    ratePerMinute: 30,
    schedule: { type: 'CRON', conf: '0 */5 * * * ?', timeZone: 'Europe/Berlin' },
    bounds: { startAt: T0 - 7_200_000 },
    total: 12,
    nextFireTime: T0 - 3_000_000,
    notBefore: T0 + 2_000,
    dispatched: 2,
    succeeded: 1,
    failed: 1,
    running: [{ scheduledTime: T0 - 3_300_000, logId: 7 * 2 ** 32 + 2 ** 31 + 3, sentAt: T0 - 500 }],
    failures: [T0 - 3_600_000],
    state: 'RUNNING',
    createdAt,
    createdBy: 'ana',
    revision: 3,
    ...fields,
  };
}

/** `backfill` moved on one revision, with `fields`. */
function moved(backfill: Backfill, fields: Partial<Backfill>): Backfill {
  return { ...backfill, ...fields, revision: backfill.revision + 1 };
}

export function backfillStoreContract(label: string, newStore: () => Promise<BackfillStore>): void {
  describe(`BackfillStore contract (${label})`, () => {
    it('creates a backfill and reads it back as written; an unknown id reads nothing', async () => {
      const store = await newStore();
      const backfill = testBackfill();
      await store.create(backfill);
      expect(await store.get(backfill.id)).toEqual(backfill);
      expect(await store.get('bf-7-zzzz-0000')).toBeUndefined();
      // A backfill without its optional fields stays without them.
      const {
        ratePerMinute: _r,
        notBefore: _n,
        nextFireTime: _f,
        ...bare
      } = testBackfill({
        jobId: 8,
        bounds: {},
        running: [],
        failures: [],
      });
      await store.create(bare);
      expect(await store.get(bare.id)).toEqual(bare);
    });

    it('refuses a second active backfill of a job (ConflictError naming the active one), not of another job', async () => {
      const store = await newStore();
      const first = testBackfill();
      await store.create(first);
      const second = testBackfill({ createdAt: T0 + 1000 });
      const refused = await refusal(store.create(second));
      expect(refused).toBeInstanceOf(ConflictError);
      expect(refused.message).toContain(first.id);
      expect(await store.get(second.id)).toBeUndefined();
      await store.create(testBackfill({ jobId: 8 }));
      expect((await store.listActive()).map((b) => b.id).sort()).toEqual(
        [first.id, testBackfill({ jobId: 8 }).id].sort(),
      );
    });

    it('frees the job when its backfill ends: the next one may start, and only it is active', async () => {
      const store = await newStore();
      const first = testBackfill();
      await store.create(first);
      const cancelled = moved(first, { state: 'CANCELLED', cancelledAt: T0 + 5, cancelledBy: 'bo' });
      await store.update(cancelled, first.revision);
      // Cancelled with a fire still running: still active.
      expect(await refusal(store.create(testBackfill({ createdAt: T0 + 1000 })))).toBeInstanceOf(
        ConflictError,
      );
      const ended = moved(cancelled, { running: [], endedAt: T0 + 9 });
      await store.update(ended, cancelled.revision);
      expect(await store.listActive()).toEqual([]);
      const second = testBackfill({ createdAt: T0 + 1000 });
      await store.create(second);
      expect((await store.listActive()).map((b) => b.id)).toEqual([second.id]);
      expect(await store.get(first.id)).toEqual(ended);
    });

    it('updates only at the revision read: a stale revision is a ConflictError, a missing backfill a NotFoundError', async () => {
      const store = await newStore();
      const backfill = testBackfill();
      await store.create(backfill);
      const next = moved(backfill, { dispatched: 3, nextFireTime: T0 - 2_700_000 });
      await store.update(next, backfill.revision);
      expect(
        await refusal(store.update(moved(backfill, { dispatched: 9 }), backfill.revision)),
      ).toBeInstanceOf(ConflictError);
      expect(await store.get(backfill.id)).toEqual(next);
      // Optional fields dropped by an update are gone.
      const { nextFireTime: _f, notBefore: _n, ...rest } = next;
      const drained = { ...rest, revision: next.revision + 1 };
      await store.update(drained, next.revision);
      expect(await store.get(backfill.id)).toEqual(drained);
      const ghost = testBackfill({ jobId: 99 });
      expect(await refusal(store.update(moved(ghost, {}), ghost.revision))).toBeInstanceOf(NotFoundError);
    });

    it('lets exactly one of many concurrent updates at one revision win', async () => {
      const store = await newStore();
      const backfill = testBackfill();
      await store.create(backfill);
      const attempts = Array.from({ length: 6 }, (_, i) => moved(backfill, { dispatched: 10 + i }));
      const results = await Promise.allSettled(attempts.map((a) => store.update(a, backfill.revision)));
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConflictError);
      const stored = await store.get(backfill.id);
      expect(attempts).toContainEqual(stored);
    });

    it('lets one of many concurrent creates for one job win', async () => {
      const store = await newStore();
      const tries = Array.from({ length: 5 }, (_, i) => testBackfill({ createdAt: T0 + i * 1000 }));
      const results = await Promise.allSettled(tries.map((b) => store.create(b)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(await store.listActive()).toHaveLength(1);
    });

    for (const limit of PAGE_SIZES) {
      it(`lists a job's backfills newest first at page size ${limit}, not another job's`, async () => {
        const store = await newStore();
        const ids: string[] = [];
        let previous: Backfill | undefined;
        for (let i = 0; i < 5; i++) {
          if (previous)
            await store.update(
              moved(previous, { state: 'COMPLETED', running: [], endedAt: T0 }),
              previous.revision,
            );
          const backfill = testBackfill({ createdAt: T0 + i * 60_000 });
          await store.create(backfill);
          ids.push(backfill.id);
          previous = backfill;
        }
        await store.create(testBackfill({ jobId: 70 }));
        const pages = await allPages(limit, (cursor) =>
          store.listByJob(7, { limit, ...(cursor ? { cursor } : {}) }),
        );
        expect(pages.flatMap((p) => p.items.map((b) => b.id))).toEqual([...ids].reverse());
        expect((await store.listByJob(8, { limit })).items).toEqual([]);
      });
    }
  });
}
