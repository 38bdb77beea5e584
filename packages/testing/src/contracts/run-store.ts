/**
 * The RunStore contract: every behaviour of the port that a use-case relies on (dispatchFire, the
 * executor callbacks, the monitors, the admin runs list and triggers), written once and run over
 * each adapter: in memory (unit, memory/run-store.contract.test.ts) and on DynamoDB Local
 * (integration, packages/aws/src/dynamodb/run-store.contract.int.test.ts). An adapter ships only
 * when it passes it, unchanged.
 *
 * It reaches the storage through the port only. Every time the port needs is an argument, except
 * the default time range of `list`, read from the wall clock: the runs are placed relative to
 * `Date.now()`, so no clock control is needed. Where two claims must differ, their tokens are made
 * at distinct milliseconds (an adapter may salt its tokens rather than make them unique).
 */

import { ValidationError } from '@tickring/core/common';
import {
  type DispatchEntry,
  firstPlannedLogId,
  jobIdOfLogId,
  keepsSuccess,
  MAX_HANDLE_MSG,
  OUTCOME_GRACE_MS,
  type Run,
  type RunQuery,
  type RunStatus,
  type RunStore,
  runStatus,
  TRIGGER_CODE,
  UNPLANNED_LOG_ID_OFFSET,
  unplannedLogId,
} from '@tickring/core/runs';
import { beforeAll, describe, expect, it } from 'vitest';
import { RunSeeder, type RunSeedFields, type RunSeedOptions, sentRun } from '../run-seeding.js';

/** What the suite gets for each fresh store. */
export interface RunStoreUnderTest {
  /** A store on fresh, empty storage. */
  readonly store: RunStore;
  /**
   * Another store on the same storage, as another function instance opens it: it shares what is
   * stored, nothing the first keeps in memory. The same object for a store that keeps nothing.
   */
  peer(): RunStore;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The monitors' default wait for a dispatch record to be written (lostRunSettleSeconds). */
const SETTLE_MS = 60_000;
const EXECUTOR = 'http://127.0.0.1:9999/';
/** The page sizes every cursor is followed at: one run at a time, small pages, and all at once. */
const PAGE_SIZES = [1, 2, 3, 100] as const;
/** A filtered list is followed one run at a time (the filter skips runs between cursors) and two at a time. */
const FILTERED_PAGE_SIZES = [1, 2] as const;

/** An executor's refusal, as the dispatcher records it. */
function refusalAt(dispatchedAt: number, triggerMsg = 'refused') {
  return { executorAddress: EXECUTOR, triggerCode: TRIGGER_CODE.fail, triggerMsg, dispatchedAt };
}

/** A stored run's expiry where a test is not about it (see the retention tests). */
const anyExpiry = expect.any(Number);

function hourStartOf(epochMs: number): number {
  return epochMs - (epochMs % HOUR_MS);
}

function ids(runs: readonly Pick<Run, 'logId'>[]): number[] {
  return runs.map((r) => r.logId);
}

function newestFirst(runs: readonly Run[]): Run[] {
  return [...runs].sort((a, b) => b.triggerTime - a.triggerTime);
}

function repeated(logIds: readonly number[]): number[] {
  return logIds.filter((id, i) => logIds.indexOf(id) !== i);
}

function byLogId<T extends Pick<Run, 'logId'>>(runs: readonly T[]): T[] {
  return [...runs].sort((a, b) => a.logId - b.logId);
}

export function runStoreContract(label: string, newStore: () => Promise<RunStoreUnderTest>): void {
  async function fresh(): Promise<RunSeeder> {
    const made = await newStore();
    return new RunSeeder(made.store, () => made.peer());
  }

  /** One fresh store for the tests of a describe block, each test on jobs (and times) of its own. */
  function storePerBlock(): () => RunSeeder {
    let runs: RunSeeder | undefined;
    beforeAll(async () => {
      runs = await fresh();
    });
    return () => {
      if (!runs) throw new Error('the store is not made yet');
      return runs;
    };
  }

  /**
   * Pages `query` at every page size (or at `sizes`): the same runs each time, in order, the last
   * page without a cursor.
   */
  async function expectPaged(
    h: RunSeeder,
    query: Omit<RunQuery, 'cursor' | 'limit'>,
    expected: readonly Run[],
    sizes: readonly number[] = PAGE_SIZES,
  ) {
    for (const limit of sizes) {
      const { pages, runs, exhausted } = await h.allPages({ ...query, limit });
      expect(ids(runs), `limit ${limit}`).toEqual(ids(expected));
      expect(exhausted, `limit ${limit}`).toBe(true);
      expect(
        pages.map((page) => page.length).filter((size) => size > limit),
        `limit ${limit}`,
      ).toEqual([]);
      // At most one page past the last run (one that had to look to know nothing was left).
      expect(pages.length, `limit ${limit}`).toBeLessThanOrEqual(Math.ceil(expected.length / limit) + 1);
    }
  }

  describe(`RunStore contract (${label})`, () => {
    describe('allocateLogIds', () => {
      const h = storePerBlock();

      it("gives out unique logIds, ascending, in the job's own unplanned range; none for a count of 0", async () => {
        const { store } = h();
        const first = await store.allocateLogIds(11, 3);
        const next = await store.allocateLogIds(11, 120);
        const all = [...first, ...next];
        expect(first).toHaveLength(3);
        expect(next).toHaveLength(120);
        expect(all).toEqual([...all].sort((a, b) => a - b));
        expect(new Set(all).size).toBe(all.length);
        for (const logId of all) {
          expect(jobIdOfLogId(logId)).toBe(11);
          expect(logId - firstPlannedLogId(11)).toBeGreaterThanOrEqual(UNPLANNED_LOG_ID_OFFSET);
        }
        expect(await store.allocateLogIds(11, 0)).toEqual([]);
      });

      it('counts each job on its own: two jobs never share a logId', async () => {
        const { store } = h();
        const a = await store.allocateLogIds(12, 5);
        const b = await store.allocateLogIds(13, 5);
        const a2 = await store.allocateLogIds(12, 1);
        expect(a.every((id) => jobIdOfLogId(id) === 12)).toBe(true);
        expect(b.every((id) => jobIdOfLogId(id) === 13)).toBe(true);
        expect(a2[0]).toBeGreaterThan(Math.max(...a));
        expect(new Set([...a, ...a2, ...b]).size).toBe(11);
      });

      it('never gives concurrent callers the same logId, on one store or on two', async () => {
        const { store, peer } = h();
        const other = peer();
        const batches = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            (i % 2 ? other : store).allocateLogIds(14 + (i % 3), 1 + (i % 4)),
          ),
        );
        const all = batches.flat();
        expect(all).toHaveLength(100);
        expect(repeated(all)).toEqual([]);
        for (const [i, batch] of batches.entries()) {
          expect(batch.every((id) => jobIdOfLogId(id) === 14 + (i % 3))).toBe(true);
          expect(batch).toEqual([...batch].sort((x, y) => x - y));
        }
      });
    });

    describe('dispatch records', () => {
      const h = storePerBlock();
      const at = Date.now() - HOUR_MS;
      const entry = (logId: number, appName = 'records'): DispatchEntry => ({
        logId,
        appName,
        deadline: at + 600_000,
      });

      it('tell which logIds were recorded under a claim token; a second record under it adds to the first', async () => {
        const { store } = h();
        const token = store.newClaimToken(at);
        expect(await store.dispatchedUnder(token)).toEqual(new Set());
        await store.recordDispatch(token, [
          entry(unplannedLogId(20, 0)),
          entry(unplannedLogId(21, 0), 'other'),
        ]);
        expect(await store.dispatchedUnder(token)).toEqual(
          new Set([unplannedLogId(20, 0), unplannedLogId(21, 0)]),
        );
        await store.recordDispatch(token, [{ ...entry(unplannedLogId(20, 1)), deadline: 0 }]);
        expect(await store.dispatchedUnder(token)).toEqual(
          new Set([unplannedLogId(20, 0), unplannedLogId(21, 0), unplannedLogId(20, 1)]),
        );
      });

      it("keep each token's records apart, and an empty record writes nothing", async () => {
        const { store } = h();
        const one = store.newClaimToken(at + 1_000);
        const other = store.newClaimToken(at + 2_000);
        await store.recordDispatch(one, [entry(unplannedLogId(22, 0))]);
        await store.recordDispatch(other, []);
        expect(await store.dispatchedUnder(other)).toEqual(new Set());
        expect(await store.dispatchedUnder(one)).toEqual(new Set([unplannedLogId(22, 0)]));
      });

      it('keep both of two records written at once under one token', async () => {
        const { store, peer } = h();
        const token = store.newClaimToken(at + 3_000);
        const logIds = Array.from({ length: 6 }, (_, i) => unplannedLogId(23, i));
        await Promise.all(
          logIds.map((logId, i) => (i % 2 ? peer() : store).recordDispatch(token, [entry(logId)])),
        );
        expect(await store.dispatchedUnder(token)).toEqual(new Set(logIds));
      });
    });

    describe('createFire: a fire and its runs, all or nothing, once', () => {
      const h = storePerBlock();
      const now = Date.now();

      it('records a fire with its runs once; a duplicate writes nothing and gets the first logIds', async () => {
        const { store } = h();
        const logIds = await store.allocateLogIds(30, 3);
        const shards = logIds.map((logId, i) =>
          sentRun(logId, {
            jobId: 30,
            appName: 'fires',
            triggerTime: now,
            dedupKey: `30#${now}`,
            shardIndex: i,
            shardTotal: 3,
          }),
        );
        const token = store.newClaimToken(now);
        expect(await store.createFire(`30#${now}`, shards, token)).toEqual({ created: true });
        expect(byLogId(await store.getMany(logIds))).toEqual(
          shards.map((run) => ({ ...run, claimToken: token, claimAt: now, expiresAt: anyExpiry })),
        );
        for (const run of shards) expect(await store.get(run.logId)).toEqual(run);

        const again = await store.allocateLogIds(30, 3);
        const duplicate = again.map((logId) =>
          sentRun(logId, { jobId: 30, appName: 'fires', triggerTime: now + 5 }),
        );
        expect(await store.createFire(`30#${now}`, duplicate, store.newClaimToken(now + 5))).toEqual({
          created: false,
          logIds,
        });
        expect(await store.getMany(again)).toEqual([]);
      });

      it('counts its own fire recorded before (an attempt whose answer was lost) as created, and leaves it as it was', async () => {
        const { store } = h();
        // A trigger gives its runs' logIds out first: two dispatchers of one message write the same logIds.
        const logIds = await store.allocateLogIds(31, 2);
        const shards = logIds.map((logId, i) =>
          sentRun(logId, { jobId: 31, appName: 'fires', triggerTime: now, shardIndex: i, shardTotal: 2 }),
        );
        const ours = store.newClaimToken(now);
        expect(await store.createFire(`manual#31-${now}`, shards, ours)).toEqual({ created: true });
        expect(await store.createFire(`manual#31-${now}`, shards, ours)).toEqual({ created: true });
        const theirs = store.newClaimToken(now + 1);
        expect(await store.createFire(`manual#31-${now}`, shards, theirs)).toEqual({
          created: false,
          logIds,
        });
        expect((await store.getMany(logIds)).map((r) => r.claimToken)).toEqual([ours, ours]);
      });

      it('records nothing of a fire one of whose runs exists: neither the fire nor its other runs', async () => {
        const { store } = h();
        const [taken = 0, free = 0] = await store.allocateLogIds(32, 2);
        const token = store.newClaimToken(now);
        const first = sentRun(taken, { jobId: 32, appName: 'fires', triggerTime: now });
        expect(await store.createFire('32#a', [first], token)).toEqual({ created: true });
        const colliding = [
          sentRun(free, { jobId: 32, appName: 'fires', triggerTime: now + 1 }),
          sentRun(taken, { jobId: 32, appName: 'fires', triggerTime: now + 1 }),
        ];
        await expect(store.createFire('32#b', colliding, store.newClaimToken(now + 1))).rejects.toThrow();
        expect(await store.get(free)).toBeUndefined();
        expect(await store.get(taken)).toEqual(first);
        // The fire was not recorded either: an attempt with fresh logIds records it.
        const [fresh = 0] = await store.allocateLogIds(32, 1);
        const retry = sentRun(fresh, { jobId: 32, appName: 'fires', triggerTime: now + 2 });
        expect(await store.createFire('32#b', [retry], store.newClaimToken(now + 2))).toEqual({
          created: true,
        });
      });

      it('lets exactly one of concurrent dispatchers of one fire record it; the others get its logIds', async () => {
        const { store, peer } = h();
        const attempts = await Promise.all(
          Array.from({ length: 5 }, async (_, i) => {
            const logIds = await store.allocateLogIds(33, 2);
            const runs = logIds.map((logId, shardIndex) =>
              sentRun(logId, { jobId: 33, appName: 'fires', triggerTime: now, shardIndex, shardTotal: 2 }),
            );
            return { logIds, token: store.newClaimToken(now + 10 + i), runs };
          }),
        );
        const results = await Promise.all(
          attempts.map((a, i) => (i % 2 ? peer() : store).createFire(`33#${now}`, a.runs, a.token)),
        );
        const winners = attempts.filter((_, i) => results[i]?.created);
        expect(winners).toHaveLength(1);
        const winner = winners[0] as (typeof attempts)[number];
        for (const result of results) {
          if (!result.created) expect(result.logIds).toEqual(winner.logIds);
        }
        const stored = await store.getMany(attempts.flatMap((a) => a.logIds));
        expect(byLogId(stored).map((r) => [r.logId, r.claimToken])).toEqual(
          winner.logIds.map((logId) => [logId, winner.token]),
        );
      });
    });

    describe('claim: a planned run, once', () => {
      const h = storePerBlock();
      const now = Date.now();

      it('claims a planned run once; the same token again counts as created, another token gets the logId', async () => {
        const { store } = h();
        const run = sentRun(firstPlannedLogId(40) + 7, { jobId: 40, appName: 'claims', triggerTime: now });
        const token = store.newClaimToken(now);
        expect(await store.claim(run, token)).toEqual({ created: true });
        expect(await store.claim(run, token)).toEqual({ created: true });
        const other = { ...run, triggerTime: now + 1, executorAddress: 'http://10.0.0.9:9999/' };
        expect(await store.claim(other, store.newClaimToken(now + 1))).toEqual({
          created: false,
          logIds: [run.logId],
        });
        expect(await store.getMany([run.logId])).toEqual([
          { ...run, claimToken: token, claimAt: now, expiresAt: anyExpiry },
        ]);
      });

      it('lets exactly one of concurrent claims of a run win; the run is as the winner wrote it', async () => {
        const { store, peer } = h();
        const logId = firstPlannedLogId(41) + 3;
        const claims = Array.from({ length: 5 }, (_, i) => ({
          run: sentRun(logId, { jobId: 41, appName: 'claims', triggerTime: now + i }),
          token: store.newClaimToken(now + i),
        }));
        const results = await Promise.all(
          claims.map(({ run, token }, i) => (i % 2 ? peer() : store).claim(run, token)),
        );
        expect(results.filter((r) => r.created)).toHaveLength(1);
        expect(results.filter((r) => !r.created)).toEqual(Array(4).fill({ created: false, logIds: [logId] }));
        const winner = claims[results.findIndex((r) => r.created)];
        expect(await store.getMany([logId])).toEqual([
          {
            ...winner?.run,
            claimToken: winner?.token,
            claimAt: winner?.run.triggerTime,
            expiresAt: anyExpiry,
          },
        ]);
      });
    });

    describe('get and getMany', () => {
      const h = storePerBlock();

      it('read a run as written, without its claim; unknown and malformed logIds are absent', async () => {
        const now = Date.now();
        const { run } = await h().seedRun({ jobId: 50, appName: 'reads', triggerTime: now });
        const { store } = h();
        expect(await store.get(run.logId)).toEqual(
          sentRun(run.logId, { jobId: 50, appName: 'reads', triggerTime: now }),
        );
        expect(await store.get(run.logId)).not.toHaveProperty('claimToken');
        expect(await store.get(run.logId + 1)).toBeUndefined();
        for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 53]) expect(await store.get(bad)).toBeUndefined();
      });

      it('read many runs with their claims, each once, leaving out those not stored', async () => {
        const now = Date.now();
        const a = await h().seedRun({ jobId: 51, appName: 'reads', triggerTime: now });
        const b = await h().seedRun({ jobId: 51, appName: 'reads', triggerTime: now + 1 });
        const { store } = h();
        const many = await store.getMany([b.run.logId, a.run.logId, a.run.logId, a.run.logId + 99, -3]);
        expect(byLogId(many)).toEqual([
          { ...a.run, claimToken: a.token, claimAt: now, expiresAt: anyExpiry },
          { ...b.run, claimToken: b.token, claimAt: now + 1, expiresAt: anyExpiry },
        ]);
        expect(await store.getMany([])).toEqual([]);
      });
    });

    describe('reclaim: a stale claim taken over, compare-and-set', () => {
      const h = storePerBlock();
      const t = Date.now() - 10 * MINUTE_MS;

      it('takes over a stale claim under a new token, at the time given, replacing the trigger message if asked', async () => {
        const { run, token } = await h().seedRun(
          { jobId: 60, appName: 'a', triggerTime: t },
          { record: false },
        );
        const { store } = h();
        const next = store.newClaimToken(t + 5 * MINUTE_MS);
        const claim = {
          previousToken: token,
          claimToken: next,
          nowMs: t + 5 * MINUTE_MS,
          staleBeforeMs: t + 1,
        };
        expect(await store.reclaim(run.logId, claim)).toBe(true);
        expect(await store.getMany([run.logId])).toEqual([
          { ...run, claimToken: next, claimAt: t + 5 * MINUTE_MS, expiresAt: anyExpiry },
        ]);

        const { run: caughtUp, token: old } = await h().seedRun(
          { jobId: 60, appName: 'a', triggerTime: t },
          { record: false },
        );
        const third = store.newClaimToken(t + 6 * MINUTE_MS);
        const note = 'Trigger type: CRON\nCatch-up: FIRE_ONCE_NOW';
        expect(
          await store.reclaim(caughtUp.logId, {
            ...claim,
            previousToken: old,
            claimToken: third,
            triggerMsg: note,
          }),
        ).toBe(true);
        expect(await store.get(caughtUp.logId)).toEqual({ ...caughtUp, triggerMsg: note });
      });

      it('refuses a claim not stale yet or held under another token; once taken over, only the new token can', async () => {
        const { run, token } = await h().seedRun(
          { jobId: 61, appName: 'a', triggerTime: t },
          { record: false },
        );
        const { store } = h();
        const next = store.newClaimToken(t + MINUTE_MS);
        const claim = { previousToken: token, claimToken: next, nowMs: t + MINUTE_MS };
        // Stale means claimed strictly before the bound.
        expect(await store.reclaim(run.logId, { ...claim, staleBeforeMs: t })).toBe(false);
        expect(await store.reclaim(run.logId, { ...claim, previousToken: next, staleBeforeMs: t + 1 })).toBe(
          false,
        );
        expect((await store.getMany([run.logId]))[0]).toMatchObject({ claimToken: token, claimAt: t });

        expect(await store.reclaim(run.logId, { ...claim, staleBeforeMs: t + 1 })).toBe(true);
        const third = store.newClaimToken(t + 2 * MINUTE_MS);
        const again = { claimToken: third, nowMs: t + 2 * MINUTE_MS, staleBeforeMs: t + 1 };
        expect(await store.reclaim(run.logId, { ...again, previousToken: token })).toBe(false);
        // The new claim is fresh: not stale before its own time.
        expect(await store.reclaim(run.logId, { ...again, previousToken: next })).toBe(false);
        expect(
          await store.reclaim(run.logId, { ...again, previousToken: next, staleBeforeMs: t + MINUTE_MS + 1 }),
        ).toBe(true);
        expect((await store.getMany([run.logId]))[0]).toMatchObject({
          claimToken: third,
          claimAt: t + 2 * MINUTE_MS,
        });
      });

      it('refuses a run refused, recorded as refused, skipped, with its result, or unknown (creating nothing)', async () => {
        const { store } = h();
        const claim = (previousToken: string) => ({
          previousToken,
          claimToken: store.newClaimToken(t + MINUTE_MS),
          nowMs: t + MINUTE_MS,
          staleBeforeMs: t + 1,
        });
        const refused = await h().seedRun({ jobId: 62, appName: 'a', triggerTime: t });
        expect(await store.recordRefusal(refused.run.logId, refused.token, refusalAt(t))).toBe(true);
        expect(await store.reclaim(refused.run.logId, claim(refused.token))).toBe(false);

        const unrouted = await h().seedRun(
          { jobId: 62, appName: 'a', triggerTime: t, executorAddress: '', triggerCode: TRIGGER_CODE.fail },
          { record: false },
        );
        expect(await store.reclaim(unrouted.run.logId, claim(unrouted.token))).toBe(false);

        const skipped = await h().seedRun({ jobId: 62, appName: 'a', triggerTime: t }, { record: false });
        expect(
          await store.skipClaimed(skipped.run.logId, {
            claimToken: skipped.token,
            triggerMsg: 'late',
            nowMs: t,
          }),
        ).toBe(true);
        expect(await store.reclaim(skipped.run.logId, claim(skipped.token))).toBe(false);

        for (const status of ['success', 'fail'] as const) {
          const done = await h().seedRun({ jobId: 62, appName: 'a', triggerTime: t }, { status });
          expect(await store.reclaim(done.run.logId, claim(done.token))).toBe(false);
          expect((await store.getMany([done.run.logId]))[0]?.claimToken).toBe(done.token);
        }

        const unknown = unplannedLogId(62, 999_999);
        expect(await store.reclaim(unknown, claim(store.newClaimToken(t)))).toBe(false);
        expect(await store.get(unknown)).toBeUndefined();
      });

      it('lets exactly one of concurrent take-overs of a stale claim win', async () => {
        const { run, token } = await h().seedRun(
          { jobId: 63, appName: 'a', triggerTime: t },
          { record: false },
        );
        const { store, peer } = h();
        const tokens = Array.from({ length: 4 }, (_, i) => store.newClaimToken(t + MINUTE_MS + i));
        const results = await Promise.all(
          tokens.map((claimToken, i) =>
            (i % 2 ? peer() : store).reclaim(run.logId, {
              previousToken: token,
              claimToken,
              nowMs: t + MINUTE_MS + i,
              staleBeforeMs: t + 1,
            }),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = results.indexOf(true);
        expect((await store.getMany([run.logId]))[0]).toMatchObject({
          claimToken: tokens[winner],
          claimAt: t + MINUTE_MS + winner,
        });
      });
    });

    describe('laterPlannedRun', () => {
      const h = storePerBlock();

      it("finds the job's next planned run above a logId, not its unplanned runs nor another job's", async () => {
        const t = Date.now();
        for (const n of [3, 5, 9]) {
          await h().seedPlanned(
            n,
            { jobId: 70, appName: 'order', triggerTime: t + n * MINUTE_MS },
            { record: false },
          );
        }
        await h().seedRun({ jobId: 70, appName: 'order', triggerTime: t + HOUR_MS }, { record: false });
        await h().seedPlanned(0, { jobId: 71, appName: 'order', triggerTime: t }, { record: false });
        const { store } = h();
        const base = firstPlannedLogId(70);
        expect(await store.laterPlannedRun(base)).toEqual({
          logId: base + 3,
          scheduledTime: t + 3 * MINUTE_MS,
        });
        expect(await store.laterPlannedRun(base + 3)).toEqual({
          logId: base + 5,
          scheduledTime: t + 5 * MINUTE_MS,
        });
        expect(await store.laterPlannedRun(base + 6)).toEqual({
          logId: base + 9,
          scheduledTime: t + 9 * MINUTE_MS,
        });
        expect(await store.laterPlannedRun(base + 9)).toBeUndefined();
        expect(await store.laterPlannedRun(firstPlannedLogId(72))).toBeUndefined();
      });
    });

    describe('skip ranges: latestPlannedRun and extendSkipRange', () => {
      const h = storePerBlock();
      const t = Date.now() - 10 * MINUTE_MS;
      /** The job's `n`-th planned fire at `at`, recorded as skipped (never sent), standing for `range` fires. */
      const seedSkipped = (
        jobId: number,
        n: number,
        at: number,
        range: Pick<Run, 'skippedCount' | 'skippedUntil'> = {},
      ) =>
        h().seedPlanned(
          n,
          {
            jobId,
            appName: 'ranges',
            triggerTime: at,
            executorAddress: '',
            triggerCode: TRIGGER_CODE.skipped,
            triggerMsg: 'Skipped, never sent: late',
            dispatchedAt: 0,
            ...range,
          },
          { record: false },
        );

      it("reads the job's highest planned run, at or below a bound; never its unplanned runs nor another job's", async () => {
        for (const n of [3, 5, 9]) {
          await h().seedPlanned(
            n,
            { jobId: 73, appName: 'ranges', triggerTime: t + n * 1000 },
            { record: false },
          );
        }
        await h().seedRun({ jobId: 73, appName: 'ranges', triggerTime: t + HOUR_MS }, { record: false });
        // Its neighbours have planned runs; job 74 has none.
        await h().seedPlanned(0, { jobId: 72, appName: 'ranges', triggerTime: t }, { record: false });
        await h().seedPlanned(0, { jobId: 75, appName: 'ranges', triggerTime: t }, { record: false });
        const { store } = h();
        const base = firstPlannedLogId(73);
        const head = (n: number) => ({
          logId: base + n,
          scheduledTime: t + n * 1000,
          triggerCode: TRIGGER_CODE.success,
        });
        expect(await store.latestPlannedRun(73)).toEqual(head(9));
        expect(await store.latestPlannedRun(73, base + 8)).toEqual(head(5));
        expect(await store.latestPlannedRun(73, base + 5)).toEqual(head(5));
        expect(await store.latestPlannedRun(73, base + 2)).toBeUndefined();
        expect(await store.latestPlannedRun(74)).toBeUndefined();
        expect(await store.latestPlannedRun(74, firstPlannedLogId(76))).toBeUndefined();
      });

      it('round-trips a range through get, getMany, the job list and latestPlannedRun', async () => {
        const range = { skippedCount: 5, skippedUntil: t + 4000 };
        const { run, token } = await seedSkipped(76, 2, t, range);
        const { store } = h();
        expect(run).toMatchObject({ ...range, triggerCode: TRIGGER_CODE.skipped, scheduledTime: t });
        expect(await store.getMany([run.logId])).toEqual([
          { ...run, claimToken: token, claimAt: t, expiresAt: anyExpiry },
        ]);
        expect((await store.list({ jobId: 76, status: 'skipped', limit: 10 })).items).toEqual([run]);
        expect(await store.latestPlannedRun(76)).toEqual({
          logId: run.logId,
          scheduledTime: t,
          triggerCode: TRIGGER_CODE.skipped,
          ...range,
        });
      });

      it('extends a range only from the last fire it expects: count added, until and message replaced', async () => {
        // A single skip (no range fields) ends at its own fire.
        const { run } = await seedSkipped(77, 0, t);
        const { store } = h();
        const extend = { until: t + 3000, addCount: 3, triggerMsg: 'Skipped, never sent: 4 fires' };
        expect(await store.extendSkipRange(run.logId, { ...extend, expectedUntil: t + 1000 })).toBe(false);
        expect(await store.get(run.logId)).toEqual(run);
        expect(await store.extendSkipRange(run.logId, { ...extend, expectedUntil: t })).toBe(true);
        const extended = { ...run, skippedCount: 4, skippedUntil: t + 3000, triggerMsg: extend.triggerMsg };
        expect(await store.get(run.logId)).toEqual(extended);
        // Extended meanwhile: the old end no longer matches.
        expect(await store.extendSkipRange(run.logId, { ...extend, expectedUntil: t })).toBe(false);
        // Without a message, the message stays.
        expect(
          await store.extendSkipRange(run.logId, { expectedUntil: t + 3000, until: t + 5000, addCount: 2 }),
        ).toBe(true);
        expect(await store.get(run.logId)).toEqual({ ...extended, skippedCount: 6, skippedUntil: t + 5000 });
        expect(await store.latestPlannedRun(77)).toMatchObject({ skippedCount: 6, skippedUntil: t + 5000 });
      });

      it('never extends a run that is not skipped, nor an unknown one (creating nothing)', async () => {
        const { run } = await h().seedPlanned(
          0,
          { jobId: 78, appName: 'ranges', triggerTime: t },
          { record: false },
        );
        const { store } = h();
        const extension = { expectedUntil: t, until: t + 1000, addCount: 1 };
        expect(await store.extendSkipRange(run.logId, extension)).toBe(false);
        expect(await store.get(run.logId)).toEqual(run);
        const unknown = firstPlannedLogId(78) + 1;
        expect(await store.extendSkipRange(unknown, { ...extension, expectedUntil: t + 1000 })).toBe(false);
        expect(await store.get(unknown)).toBeUndefined();
      });

      it('lets exactly one of concurrent extensions from the same end win', async () => {
        const { run } = await seedSkipped(79, 0, t, { skippedCount: 2, skippedUntil: t + 1000 });
        const { store, peer } = h();
        const results = await Promise.all(
          [1, 2, 3, 4].map((add, i) =>
            (i % 2 ? peer() : store).extendSkipRange(run.logId, {
              expectedUntil: t + 1000,
              until: t + 1000 + add * 1000,
              addCount: add,
            }),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const add = results.indexOf(true) + 1;
        expect(await store.get(run.logId)).toMatchObject({
          skippedCount: 2 + add,
          skippedUntil: t + 1000 + add * 1000,
        });
      });
    });

    describe('skipClaimed', () => {
      const h = storePerBlock();
      const t = Date.now() - 10 * MINUTE_MS;
      const skippedAs = (run: Run, triggerMsg: string): Run => ({
        ...run,
        triggerCode: TRIGGER_CODE.skipped,
        triggerMsg,
        executorAddress: '',
        dispatchedAt: 0,
      });

      it('rewrites a run of its own claim, to be sent, as skipped: never sent, finished, its claim kept', async () => {
        const { run, token } = await h().seedRun(
          { jobId: 80, appName: 'skips', triggerTime: t },
          { record: false },
        );
        const { store } = h();
        expect(
          await store.skipClaimed(run.logId, { claimToken: token, triggerMsg: 'overtaken', nowMs: t + 5 }),
        ).toBe(true);
        const skipped = await store.get(run.logId);
        expect(skipped).toEqual(skippedAs(run, 'overtaken'));
        expect(runStatus(skipped as Run)).toBe('skipped');
        expect((await store.getMany([run.logId]))[0]).toMatchObject({ claimToken: token, claimAt: t });
      });

      it('rewrites a run its claim recorded as refused (no executor) as skipped, with no outcome pending', async () => {
        const { run, token } = await h().seedRun(
          {
            jobId: 81,
            appName: 'skips',
            triggerTime: t,
            executorAddress: '',
            triggerCode: TRIGGER_CODE.fail,
          },
          { record: false },
        );
        const { store } = h();
        expect(
          await store.skipClaimed(run.logId, { claimToken: token, triggerMsg: 'overtaken', nowMs: t }),
        ).toBe(true);
        expect(await store.get(run.logId)).toEqual(skippedAs(run, 'overtaken'));
        const pending = await store.findOutcomePending(t + OUTCOME_GRACE_MS + HOUR_MS, 1_000);
        expect(ids(pending)).not.toContain(run.logId);
      });

      it('refuses another claim, a run with its result, and an unknown run (creating nothing)', async () => {
        const { run, token } = await h().seedRun(
          { jobId: 82, appName: 'skips', triggerTime: t },
          { record: false },
        );
        const { store } = h();
        const skip = { triggerMsg: 'late', nowMs: t + 5 };
        expect(await store.skipClaimed(run.logId, { ...skip, claimToken: store.newClaimToken(t + 1) })).toBe(
          false,
        );
        expect(await store.get(run.logId)).toEqual(run);
        const done = await h().seedRun(
          { jobId: 82, appName: 'skips', triggerTime: t },
          { status: 'success' },
        );
        expect(await store.skipClaimed(done.run.logId, { ...skip, claimToken: done.token })).toBe(false);
        expect(await store.get(done.run.logId)).toEqual(done.run);
        const unknown = unplannedLogId(82, 999_999);
        expect(await store.skipClaimed(unknown, { ...skip, claimToken: token })).toBe(false);
        expect(await store.get(unknown)).toBeUndefined();
      });

      it('takes over a stale claim of a run to be sent as skipped, claimed under the new token, as reclaim does', async () => {
        const { run, token } = await h().seedRun(
          { jobId: 83, appName: 'skips', triggerTime: t },
          { record: false },
        );
        const { store } = h();
        const next = store.newClaimToken(t + MINUTE_MS);
        const skip = { claimToken: next, triggerMsg: 'too late', nowMs: t + MINUTE_MS };
        expect(
          await store.skipClaimed(run.logId, {
            ...skip,
            takeOver: { previousToken: token, staleBeforeMs: t },
          }),
        ).toBe(false);
        expect(
          await store.skipClaimed(run.logId, {
            ...skip,
            takeOver: { previousToken: next, staleBeforeMs: t + 1 },
          }),
        ).toBe(false);
        expect(await store.get(run.logId)).toEqual(run);
        expect(
          await store.skipClaimed(run.logId, {
            ...skip,
            takeOver: { previousToken: token, staleBeforeMs: t + 1 },
          }),
        ).toBe(true);
        expect(await store.get(run.logId)).toEqual(skippedAs(run, 'too late'));
        expect((await store.getMany([run.logId]))[0]).toMatchObject({
          claimToken: next,
          claimAt: t + MINUTE_MS,
        });

        // A take-over never rewrites a run refused for want of an executor: its outcome is due.
        const unrouted = await h().seedRun(
          {
            jobId: 83,
            appName: 'skips',
            triggerTime: t,
            executorAddress: '',
            triggerCode: TRIGGER_CODE.fail,
          },
          { record: false },
        );
        expect(
          await store.skipClaimed(unrouted.run.logId, {
            ...skip,
            takeOver: { previousToken: unrouted.token, staleBeforeMs: t + 1 },
          }),
        ).toBe(false);
      });
    });

    describe('takeCatchUp', () => {
      const h = storePerBlock();
      const t = Date.now() - HOUR_MS;

      it("takes a job's mark when no catch-up ran since the fire was missed, or for the fire that holds it", async () => {
        const { store } = h();
        expect(await store.takeCatchUp(90, { missedTime: t, nowMs: t + 10_000, fireKey: '90#a' })).toBe(true);
        // Another fire missed before that catch-up ran: it ran for it too.
        expect(
          await store.takeCatchUp(90, { missedTime: t + 5_000, nowMs: t + 11_000, fireKey: '90#b' }),
        ).toBe(false);
        // The fire holding the mark takes it again (a take-over of that fire).
        expect(await store.takeCatchUp(90, { missedTime: t, nowMs: t + 12_000, fireKey: '90#a' })).toBe(true);
        // A fire missed after the last catch-up ran.
        expect(
          await store.takeCatchUp(90, { missedTime: t + 13_000, nowMs: t + 20_000, fireKey: '90#c' }),
        ).toBe(true);
        expect(
          await store.takeCatchUp(90, { missedTime: t + 14_000, nowMs: t + 21_000, fireKey: '90#a' }),
        ).toBe(false);
        // Each job has a mark of its own.
        expect(await store.takeCatchUp(91, { missedTime: t, nowMs: t + 22_000, fireKey: '91#a' })).toBe(true);
      });

      it('lets exactly one of concurrent catch-ups of a job take the mark', async () => {
        const { store, peer } = h();
        const results = await Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            (i % 2 ? peer() : store).takeCatchUp(92, {
              missedTime: t,
              nowMs: t + 10_000 + i,
              fireKey: `92#${i}`,
            }),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      });
    });

    describe('recordRefusal', () => {
      const h = storePerBlock();
      const t = Date.now() - 10 * MINUTE_MS;

      it('rewrites a run to be sent as refused, under its own claim token only, and the run is finished', async () => {
        const { run, token } = await h().seedRun({ jobId: 100, appName: 'refusals', triggerTime: t });
        const { store } = h();
        const refusal = { ...refusalAt(t + 20, 'executor busy'), executorAddress: 'http://10.0.0.7:9999/' };
        expect(await store.recordRefusal(run.logId, store.newClaimToken(t + 1), refusal)).toBe(false);
        expect(await store.get(run.logId)).toEqual(run);

        expect(await store.recordRefusal(run.logId, token, refusal)).toBe(true);
        const refused = await store.get(run.logId);
        expect(refused).toEqual({ ...run, ...refusal });
        expect(runStatus(refused as Run)).toBe('fail');
        expect(await store.recordRefusal(run.logId, token, { ...refusal, triggerMsg: 'again' })).toBe(false);
        expect((await store.get(run.logId))?.triggerMsg).toBe('executor busy');
      });

      it('leaves a run that has its result, and an unknown one, alone (creating nothing)', async () => {
        const { run, token } = await h().seedRun(
          { jobId: 101, appName: 'refusals', triggerTime: t },
          { status: 'success' },
        );
        const { store } = h();
        expect(await store.recordRefusal(run.logId, token, refusalAt(t, 'late refusal'))).toBe(false);
        expect(await store.get(run.logId)).toEqual(run);
        const unknown = unplannedLogId(101, 999_999);
        expect(await store.recordRefusal(unknown, token, refusalAt(t))).toBe(false);
        expect(await store.get(unknown)).toBeUndefined();
      });

      it('follows a take-over: the new claim token records the refusal, the old one no longer can', async () => {
        const { run, token } = await h().seedRun(
          { jobId: 102, appName: 'refusals', triggerTime: t },
          { record: false },
        );
        const { store } = h();
        const next = store.newClaimToken(t + MINUTE_MS);
        const claim = { previousToken: token, claimToken: next, nowMs: t + MINUTE_MS, staleBeforeMs: t + 1 };
        expect(await store.reclaim(run.logId, claim)).toBe(true);
        expect(await store.recordRefusal(run.logId, token, refusalAt(t + MINUTE_MS))).toBe(false);
        expect(await store.recordRefusal(run.logId, next, refusalAt(t + MINUTE_MS))).toBe(true);
      });

      it('keeps at most the admin limit of the trigger message', async () => {
        const { run, token } = await h().seedRun({ jobId: 103, appName: 'refusals', triggerTime: t });
        const { store } = h();
        await store.recordRefusal(run.logId, token, refusalAt(t, 'x'.repeat(MAX_HANDLE_MSG + 500)));
        expect((await store.get(run.logId))?.triggerMsg).toBe(`${'x'.repeat(MAX_HANDLE_MSG)}...`);
      });
    });

    describe('complete: the first result stands', () => {
      const h = storePerBlock();
      const t = Date.now() - 10 * MINUTE_MS;

      it('stores the first result only; a later one gets the run as finished; an unknown run is unknown', async () => {
        const { run } = await h().seedRun({ jobId: 110, appName: 'results', triggerTime: t });
        const { store } = h();
        const first = await store.complete(run.logId, {
          handleCode: 200,
          handleMsg: 'ok',
          handleTime: t + 5,
        });
        const done = { ...run, handleCode: 200, handleMsg: 'ok', handleTime: t + 5 };
        expect(first).toEqual({ kind: 'completed', run: done });
        expect(
          await store.complete(run.logId, { handleCode: 500, handleMsg: 'late', handleTime: t + 9 }),
        ).toEqual({
          kind: 'already-finished',
          run: done,
        });
        expect(await store.get(run.logId)).toEqual(done);
        const unknown = unplannedLogId(110, 999_999);
        expect(await store.complete(unknown, { handleCode: 200, handleMsg: '', handleTime: t })).toEqual({
          kind: 'unknown',
        });
        expect(await store.get(unknown)).toBeUndefined();
      });

      it('gives a run recorded as skipped no result: the skip was its end', async () => {
        const { run } = await h().seedRun({
          jobId: 111,
          appName: 'results',
          triggerTime: t,
          triggerCode: TRIGGER_CODE.skipped,
          executorAddress: '',
          dispatchedAt: 0,
        });
        const { store } = h();
        expect(
          await store.complete(run.logId, { handleCode: 200, handleMsg: 'ran', handleTime: t + 5 }),
        ).toEqual({
          kind: 'already-finished',
          run,
        });
        expect(await store.get(run.logId)).toEqual(run);
        const pending = await store.findOutcomePending(t + OUTCOME_GRACE_MS + HOUR_MS, 1_000);
        expect(ids(pending)).not.toContain(run.logId);
      });

      it('lets exactly one of concurrent results win; the others get the run with its result', async () => {
        const { run } = await h().seedRun({ jobId: 112, appName: 'results', triggerTime: t });
        const { store, peer } = h();
        const outcomes = await Promise.all(
          [200, 500, 502, 500].map((handleCode, i) =>
            (i % 2 ? peer() : store).complete(run.logId, {
              handleCode,
              handleMsg: `#${i}`,
              handleTime: t + i,
            }),
          ),
        );
        const completed = outcomes.filter((o) => o.kind === 'completed');
        expect(completed).toHaveLength(1);
        const winner = completed[0]?.kind === 'completed' ? completed[0].run : undefined;
        expect(outcomes.filter((o) => o.kind === 'already-finished')).toEqual(
          Array(3).fill({ kind: 'already-finished', run: winner }),
        );
        expect(await store.get(run.logId)).toEqual(winner);
      });

      it('keeps at most the admin limit of the result message', async () => {
        const { run } = await h().seedRun({ jobId: 113, appName: 'results', triggerTime: t });
        const { store } = h();
        const long = 'y'.repeat(MAX_HANDLE_MSG + 1);
        await store.complete(run.logId, { handleCode: 500, handleMsg: long, handleTime: t });
        expect((await store.get(run.logId))?.handleMsg).toBe(`${'y'.repeat(MAX_HANDLE_MSG)}...`);
      });

      it('sets the alarm status of a run, and creates nothing for an unknown one', async () => {
        const { run } = await h().seedRun(
          { jobId: 114, appName: 'results', triggerTime: t },
          { status: 'fail' },
        );
        const { store } = h();
        await store.setAlarmStatus(run.logId, 2);
        expect(await store.get(run.logId)).toEqual({ ...run, alarmStatus: 2 });
        const unknown = unplannedLogId(114, 999_999);
        await store.setAlarmStatus(unknown, 2);
        expect(await store.get(unknown)).toBeUndefined();
      });
    });

    describe("expiry: the job's retention, a sampled-out success kept a day", () => {
      const h = storePerBlock();
      const t = Date.now() - 10 * MINUTE_MS;
      const days = (n: number) => Math.floor(t / 1000) + n * 86_400;
      const expiryOf = async (logId: number) => (await h().store.getMany([logId]))[0]?.expiresAt;
      /** Runs of job `jobId` with `retention` until one success is kept and one sampled out (by logId). */
      async function keptAndSampledOut(jobId: number, retention: Run['retention']) {
        const found: { kept?: Run; sampledOut?: Run } = {};
        for (let i = 0; i < 64 && !(found.kept && found.sampledOut); i++) {
          const { run } = await h().seedRun({ jobId, appName: 'retention', triggerTime: t, retention });
          if (keepsSuccess(run.logId, retention?.successSample)) found.kept ??= run;
          else found.sampledOut ??= run;
        }
        if (!found.kept || !found.sampledOut) throw new Error('64 runs drew no kept and sampled-out pair');
        return { kept: found.kept, sampledOut: found.sampledOut };
      }
      const success = { handleCode: 200, handleMsg: 'ok', handleTime: t + 5 };

      it("expires a run its job's retention after its trigger, whatever its status", async () => {
        const { run } = await h().seedRun({
          jobId: 120,
          appName: 'retention',
          triggerTime: t,
          retention: { days: 7 },
        });
        const { run: skipped } = await h().seedPlanned(0, {
          jobId: 121,
          appName: 'retention',
          triggerTime: t,
          triggerCode: TRIGGER_CODE.skipped,
          executorAddress: '',
          dispatchedAt: 0,
          skippedCount: 3,
          retention: { days: 400 },
        });
        expect(await expiryOf(run.logId)).toBe(days(7));
        expect(await expiryOf(skipped.logId)).toBe(days(400));
        await h().store.complete(run.logId, { handleCode: 500, handleMsg: 'failed', handleTime: t + 5 });
        expect(await expiryOf(run.logId)).toBe(days(7));
      });

      it('shortens a sampled-out success to a day in the write of its result; a kept success and a failure keep the retention', async () => {
        const sample = { days: 7, successSample: 0.5 };
        const { kept, sampledOut } = await keptAndSampledOut(122, sample);
        const failing = await keptAndSampledOut(123, sample);
        const { store } = h();
        expect(await expiryOf(sampledOut.logId)).toBe(days(7));
        // As the callback writes it (no read), and with the default mark.
        expect(
          await store.complete(sampledOut.logId, success, { markOutcomePending: 'if-needed' }),
        ).toMatchObject({
          kind: 'completed',
        });
        expect(await store.complete(kept.logId, success)).toMatchObject({ kind: 'completed' });
        await store.complete(failing.sampledOut.logId, { ...success, handleCode: 500 });
        expect(await expiryOf(sampledOut.logId)).toBe(days(1));
        expect(await expiryOf(kept.logId)).toBe(days(7));
        expect(await expiryOf(failing.sampledOut.logId)).toBe(days(7));
        // A late result changes nothing: the first stands, with its expiry.
        await store.complete(failing.sampledOut.logId, success);
        expect(await expiryOf(failing.sampledOut.logId)).toBe(days(7));
      });

      it('never lengthens a retention of one day for a sampled-out success', async () => {
        const { sampledOut } = await keptAndSampledOut(124, { days: 1, successSample: 0.5 });
        await h().store.complete(sampledOut.logId, success);
        expect(await expiryOf(sampledOut.logId)).toBe(days(1));
      });
    });

    describe('outcome-pending marks', () => {
      // Results long ago: each test reads every mark of its own fresh store.
      const t = Date.UTC(2024, 0, 10, 12);
      const due = (at: number) => at + OUTCOME_GRACE_MS;
      /** The logIds of the runs due at `nowMs`, at most `limit` (in no particular order: sorted here). */
      const pendingAt = async (h: RunSeeder, nowMs: number, limit = 100) =>
        ids(byLogId(await h.store.findOutcomePending(nowMs, limit)));

      it('marks a run finished by its result, due a grace after it, found only once due, until cleared', async () => {
        const h = await fresh();
        const { run } = await h.seedRun({ jobId: 120, appName: 'outcomes', triggerTime: t });
        expect(await pendingAt(h, t + DAY_MS)).toEqual([]); // sent, no result: nothing pending
        const outcome = await h.store.complete(run.logId, {
          handleCode: 500,
          handleMsg: 'boom',
          handleTime: t + 10,
        });
        expect(outcome.kind).toBe('completed');
        expect(await pendingAt(h, due(t + 10))).toEqual([]); // due strictly before the time asked
        const found = await h.store.findOutcomePending(due(t + 10) + 1, 100);
        expect(found).toEqual([{ ...run, handleCode: 500, handleMsg: 'boom', handleTime: t + 10 }]);
        await h.store.setAlarmStatus(run.logId, 2); // leaves the mark
        expect(await pendingAt(h, due(t + 10) + 1)).toEqual([run.logId]);
        await h.store.clearOutcomePending(run.logId);
        expect(await pendingAt(h, t + DAY_MS)).toEqual([]);
        expect(await h.store.get(run.logId)).toMatchObject({ handleCode: 500, alarmStatus: 2 });
      });

      it('leaves a result stored without the mark (a plain success) with nothing pending, and a repeat too', async () => {
        const h = await fresh();
        const { run } = await h.seedRun({ jobId: 121, appName: 'outcomes', triggerTime: t });
        const result = { handleCode: 200, handleMsg: 'done', handleTime: t + 10 };
        expect(await h.store.complete(run.logId, result, { markOutcomePending: false })).toEqual({
          kind: 'completed',
          run: { ...run, ...result },
        });
        expect(await h.store.complete(run.logId, { ...result, handleCode: 500 })).toMatchObject({
          kind: 'already-finished',
          run: { handleCode: 200 },
        });
        expect(await pendingAt(h, t + DAY_MS)).toEqual([]);
      });

      it('marks "if needed" as the stored run says: a failure, a success with recorded children or none recorded', async () => {
        const h = await fresh();
        const at = t + 10;
        const success = { handleCode: 200, handleMsg: 'done', handleTime: at };
        const { run: plain } = await h.seedRun({
          jobId: 124,
          appName: 'outcomes',
          triggerTime: t,
          childJobIds: [],
        });
        const { run: parent } = await h.seedRun({
          jobId: 124,
          appName: 'outcomes',
          triggerTime: t,
          childJobIds: [7],
        });
        // Recorded by an earlier version: its children are not known, so it is marked.
        const { run: unknown } = await h.seedRun({ jobId: 124, appName: 'outcomes', triggerTime: t });
        const { run: failing } = await h.seedRun({
          jobId: 124,
          appName: 'outcomes',
          triggerTime: t,
          childJobIds: [],
        });
        const ifNeeded = { markOutcomePending: 'if-needed' } as const;
        expect(await h.store.complete(plain.logId, success, ifNeeded)).toEqual({
          kind: 'completed',
          run: { ...plain, ...success },
        });
        expect(await h.store.complete(parent.logId, success, ifNeeded)).toEqual({
          kind: 'completed',
          run: { ...parent, ...success },
        });
        expect(await h.store.complete(unknown.logId, success, ifNeeded)).toMatchObject({ kind: 'completed' });
        const failed = { handleCode: 500, handleMsg: 'boom', handleTime: at };
        expect(await h.store.complete(failing.logId, failed, ifNeeded)).toMatchObject({ kind: 'completed' });
        expect(await pendingAt(h, due(at) + 1)).toEqual(ids(byLogId([parent, unknown, failing])));
        // A repeat changes nothing, whatever it would need.
        expect(await h.store.complete(plain.logId, failed, ifNeeded)).toEqual({
          kind: 'already-finished',
          run: { ...plain, ...success },
        });
        expect(await pendingAt(h, due(at) + 1)).toEqual(ids(byLogId([parent, unknown, failing])));
      });

      it('marks a run refused by its executor in the same write, due a grace after the refusal', async () => {
        const h = await fresh();
        const { run, token } = await h.seedRun({ jobId: 122, appName: 'outcomes', triggerTime: t });
        expect(await h.store.recordRefusal(run.logId, h.store.newClaimToken(t + 1), refusalAt(t + 20))).toBe(
          false,
        );
        expect(await pendingAt(h, t + DAY_MS)).toEqual([]);
        expect(await h.store.recordRefusal(run.logId, token, refusalAt(t + 20))).toBe(true);
        expect(await pendingAt(h, due(t + 20))).toEqual([]);
        expect(await pendingAt(h, due(t + 20) + 1)).toEqual([run.logId]);
      });

      it('marks a run recorded as refused (no executor) when it is written, by a fire or by a planned claim', async () => {
        const h = await fresh();
        const refused = {
          executorAddress: '',
          triggerCode: TRIGGER_CODE.fail,
          triggerMsg: 'no executor online',
        };
        const { run: fired } = await h.seedRun(
          { jobId: 123, appName: 'outcomes', triggerTime: t, ...refused },
          { record: false },
        );
        const { run: planned } = await h.seedPlanned(
          3,
          { jobId: 123, appName: 'outcomes', triggerTime: t + 5, ...refused },
          { record: false },
        );
        expect(await pendingAt(h, due(t))).toEqual([]);
        expect(await pendingAt(h, due(t) + 1)).toEqual([fired.logId]);
        expect(byLogId(await h.store.findOutcomePending(due(t + 5) + 1, 100))).toEqual(
          byLogId([fired, planned]),
        );
      });

      it('answers the `limit` runs due earliest, only runs still marked', async () => {
        const h = await fresh();
        const logIds: number[] = [];
        for (let i = 0; i < 4; i++) {
          const { run } = await h.seedRun({ jobId: 124, appName: 'outcomes', triggerTime: t });
          logIds.push(run.logId);
        }
        // Finished in another order than made: the order is the due time's.
        const finishedAfter = [3_000, 1_000, 0, 2_000];
        for (const [i, logId] of logIds.entries()) {
          const handleTime = t + (finishedAfter[i] ?? 0);
          await h.store.complete(logId, { handleCode: 500, handleMsg: 'x', handleTime });
        }
        const [a = 0, b = 0, c = 0, d = 0] = logIds;
        const now = due(t + 10_000);
        const sorted = (logIds: number[]) => [...logIds].sort((x, y) => x - y);
        expect(await pendingAt(h, now, 2)).toEqual(sorted([c, b]));
        await h.store.clearOutcomePending(c);
        expect(await pendingAt(h, now, 2)).toEqual(sorted([b, d]));
        expect(await pendingAt(h, now, 10)).toEqual(sorted([b, d, a]));
        // The clear of an unknown run creates nothing.
        const unknown = unplannedLogId(124, 999_999);
        await h.store.clearOutcomePending(unknown);
        expect(await h.store.get(unknown)).toBeUndefined();
      });
    });

    describe("list by job: the job's planned and unplanned runs merged", () => {
      const h = storePerBlock();
      const base = Date.now() - 3 * DAY_MS;
      /** Job 400's runs: planned ones (even minutes) and unplanned ones (odd minutes), interleaved in time. */
      let jobRuns: Run[];
      /** Job 401's runs, in the same app: never listed with job 400. */
      let otherJob: Run[];

      beforeAll(async () => {
        jobRuns = [];
        const statuses: RunStatus[] = ['success', 'fail', 'running'];
        for (let k = 0; k < 8; k++) {
          const at = base + 2 * k * MINUTE_MS;
          jobRuns.push(
            (
              await h().seedPlanned(
                k,
                { jobId: 400, appName: 'jobs', triggerTime: at },
                { status: statuses[k % 3] },
              )
            ).run,
          );
        }
        for (let k = 0; k < 7; k++) {
          const at = base + (2 * k + 1) * MINUTE_MS;
          jobRuns.push(
            (
              await h().seedRun(
                { jobId: 400, appName: 'jobs', triggerTime: at },
                { status: statuses[(k + 1) % 3] },
              )
            ).run,
          );
        }
        otherJob = [
          (await h().seedPlanned(0, { jobId: 401, appName: 'jobs', triggerTime: base + 30_000 })).run,
          (await h().seedRun({ jobId: 401, appName: 'jobs', triggerTime: base + 90_000 })).run,
        ];
      });

      it('lists them newest first, each once, as stored (without their claims), at every page size', async () => {
        await expectPaged(h(), { jobId: 400 }, newestFirst(jobRuns));
        const { items } = await h().store.list({ jobId: 400, limit: 100 });
        expect(items).toEqual(newestFirst(jobRuns));
        for (const other of otherJob) expect(ids(items)).not.toContain(other.logId);
      });

      it('answers one page without a cursor when everything fits, and an empty one for a job without runs', async () => {
        const { store } = h();
        expect(await store.list({ jobId: 401, limit: 10 })).toEqual({ items: newestFirst(otherJob) });
        expect(await store.list({ jobId: 409, limit: 10 })).toEqual({ items: [] });
      });

      it('filters by status across pages, without skipping or repeating', async () => {
        for (const status of ['success', 'fail', 'running'] as const) {
          const expected = newestFirst(jobRuns).filter((r) => runStatus(r) === status);
          expect(expected.length).toBeGreaterThan(0);
          await expectPaged(h(), { jobId: 400, status }, expected, FILTERED_PAGE_SIZES);
        }
      });

      it('keeps to the trigger time range, both ends inclusive', async () => {
        const from = base + 3 * MINUTE_MS;
        const to = base + 9 * MINUTE_MS;
        const expected = newestFirst(jobRuns).filter((r) => r.triggerTime >= from && r.triggerTime <= to);
        expect(expected).toHaveLength(7);
        await expectPaged(h(), { jobId: 400, from, to }, expected, FILTERED_PAGE_SIZES);
        const running = expected.filter((r) => runStatus(r) === 'running');
        await expectPaged(h(), { jobId: 400, from, to, status: 'running' }, running, FILTERED_PAGE_SIZES);
      });

      it('sees a new result at once', async () => {
        const { run } = await h().seedRun({ jobId: 402, appName: 'jobs', triggerTime: base });
        const { store } = h();
        expect(await store.list({ jobId: 402, status: 'running', limit: 10 })).toEqual({ items: [run] });
        await store.complete(run.logId, { handleCode: 200, handleMsg: '', handleTime: base + 1 });
        expect(await store.list({ jobId: 402, status: 'running', limit: 10 })).toEqual({ items: [] });
        expect(ids((await store.list({ jobId: 402, status: 'success', limit: 10 })).items)).toEqual([
          run.logId,
        ]);
      });

      it('goes on from its cursor when runs were recorded meanwhile: every run it had yet to list, once, in order', async () => {
        const at = base + HOUR_MS;
        const before: Run[] = [];
        for (let k = 0; k < 4; k++) {
          before.push(
            (await h().seedPlanned(k, { jobId: 403, appName: 'jobs', triggerTime: at + k * MINUTE_MS })).run,
          );
          before.push(
            (await h().seedRun({ jobId: 403, appName: 'jobs', triggerTime: at + k * MINUTE_MS + 1 })).run,
          );
        }
        const { store } = h();
        const first = await store.list({ jobId: 403, limit: 3 });
        expect(first.items).toEqual(newestFirst(before).slice(0, 3));
        const later = [
          (await h().seedPlanned(9, { jobId: 403, appName: 'jobs', triggerTime: at + 9 * MINUTE_MS })).run,
          (await h().seedRun({ jobId: 403, appName: 'jobs', triggerTime: at + 9 * MINUTE_MS + 1 })).run,
        ];
        const rest: Run[] = [];
        for (let cursor = first.nextCursor, pages = 0; cursor && pages < 20; pages++) {
          const page = await store.list({ jobId: 403, limit: 3, cursor });
          rest.push(...page.items);
          cursor = page.nextCursor;
        }
        expect(repeated(ids([...first.items, ...rest]))).toEqual([]);
        expect(ids(rest.filter((r) => !ids(later).includes(r.logId)))).toEqual(
          ids(newestFirst(before).slice(3)),
        );
      });

      it('rejects a cursor it did not make, and a time range that ends before it starts', async () => {
        const { store } = h();
        const forged = Buffer.from(JSON.stringify({ p: 'x' })).toString('base64url');
        for (const cursor of ['not-a-cursor', forged]) {
          await expect(store.list({ jobId: 400, limit: 5, cursor })).rejects.toBeInstanceOf(ValidationError);
        }
        await expect(store.list({ jobId: 400, limit: 5, from: base + 1, to: base })).rejects.toBeInstanceOf(
          ValidationError,
        );
      });
    });

    describe('list by app and all runs: the dispatch records, newest first, across hours', () => {
      const h = storePerBlock();
      /** Four quiet hours a day back, the last holding more records than a small read would. */
      const hour = hourStartOf(Date.now() - DAY_MS);
      const window = { from: hour, to: hour + 4 * HOUR_MS };
      /** App X's runs in the window, as listed: newest record first, a record's newest entry first. */
      let appX: Run[];
      /** Every run in the window, any app. */
      let all: Run[];
      /** Runs days apart, of one app: the newest, a week back, and 20 days back (recorded by a peer). */
      let sparse: Run[];
      let unrecorded: Run;
      let takenOver: Run;

      /** Records runs (stored under `token`) as sent, in one record. */
      const record = (token: string, runs: readonly Run[], store = h().store) =>
        store.recordDispatch(
          token,
          runs.map((r) => ({ logId: r.logId, appName: r.appName, deadline: r.triggerTime + 600_000 })),
        );

      beforeAll(async () => {
        const { store } = h();
        const x = { appName: 'pages-x' };
        const seed = async (fields: RunSeedFields, options: RunSeedOptions) =>
          (await h().seedRun(fields, options)).run;
        // Record A, hour 0: two runs of app X (two jobs) and one of app Y.
        const tA = hour + 10 * MINUTE_MS;
        const tokenA = store.newClaimToken(tA);
        const a1 = await seed({ ...x, jobId: 500, triggerTime: tA + 1 }, { token: tokenA, record: false });
        const a2 = await seed(
          { appName: 'pages-y', jobId: 510, triggerTime: tA + 2 },
          { token: tokenA, record: false },
        );
        const a3 = await seed({ ...x, jobId: 501, triggerTime: tA + 3 }, { token: tokenA, record: false });
        await record(tokenA, [a1, a2, a3]);

        // Record B, hour 1: three runs of app X, one a planned run, one failed.
        const tB = hour + 70 * MINUTE_MS;
        const tokenB = store.newClaimToken(tB);
        const b1 = (
          await h().seedPlanned(
            0,
            { ...x, jobId: 500, triggerTime: tB + 1 },
            { token: tokenB, record: false },
          )
        ).run;
        const b2 = await seed(
          { ...x, jobId: 501, triggerTime: tB + 2 },
          { token: tokenB, record: false, status: 'fail' },
        );
        const b3 = await seed({ ...x, jobId: 500, triggerTime: tB + 3 }, { token: tokenB, record: false });
        await record(tokenB, [b1, b2, b3]);

        // Record C, hour 2: a run recorded as sent (and succeeded); one claimed under C but never
        // recorded (its dispatcher died first): only its job lists it.
        const tC = hour + 130 * MINUTE_MS;
        const tokenC = store.newClaimToken(tC);
        const c1 = await seed(
          { ...x, jobId: 502, triggerTime: tC + 1 },
          { token: tokenC, status: 'success' },
        );
        unrecorded = await seed({ ...x, jobId: 502, triggerTime: tC + 2 }, { token: tokenC, record: false });

        // Two runs claimed under D (hour 0), taken over under E (hour 2): one never recorded under D,
        // one recorded under D too (a slow dispatcher's record, written after the take-over).
        const tD = hour + 20 * MINUTE_MS;
        const tokenD = store.newClaimToken(tD);
        const d1 = await seed({ ...x, jobId: 503, triggerTime: tD + 1 }, { token: tokenD, record: false });
        const d2 = await seed({ ...x, jobId: 503, triggerTime: tD + 2 }, { token: tokenD, record: false });
        const tE = hour + 150 * MINUTE_MS;
        const tokenE = store.newClaimToken(tE);
        for (const run of [d1, d2]) {
          const claim = { previousToken: tokenD, claimToken: tokenE, nowMs: tE, staleBeforeMs: tE };
          expect(await store.reclaim(run.logId, claim)).toBe(true);
        }
        await record(tokenE, [d1, d2]);
        await record(tokenD, [d2]);
        takenOver = d2;

        // Hour 3: thirteen records of app Z, a minute apart, three of them of two runs.
        const busy: Run[] = [];
        for (let i = 0; i < 13; i++) {
          const at = hour + 3 * HOUR_MS + (i + 1) * MINUTE_MS;
          const token = store.newClaimToken(at);
          const runs: Run[] = [];
          for (let j = 0; j < (i % 6 === 0 ? 2 : 1); j++) {
            runs.push(
              await seed(
                { appName: 'pages-z', jobId: 520, triggerTime: at + j + 1 },
                { token, record: false },
              ),
            );
          }
          await record(token, runs);
          busy.push(...runs);
        }

        appX = [d2, d1, c1, b3, b2, b1, a3, a1];
        all = [...newestFirst(busy), d2, d1, c1, b3, b2, b1, a3, a2, a1];

        const now = Date.now();
        const recent = await seed({ appName: 'sparse', jobId: 530, triggerTime: now - 2 * MINUTE_MS }, {});
        const week = await seed({ appName: 'sparse', jobId: 530, triggerTime: now - 7 * DAY_MS }, {});
        // Another instance records in an earlier hour after this one recorded later ones.
        const old = await new RunSeeder(h().peer(), h().peer).seedRun(
          { appName: 'sparse', jobId: 531, triggerTime: now - 20 * DAY_MS },
          {},
        );
        sparse = [recent, week, old.run];
      });

      it("lists an app's runs newest record first, each once, as stored (without their claims), at every page size", async () => {
        await expectPaged(h(), { appName: 'pages-x', ...window }, appX);
        expect((await h().store.list({ appName: 'pages-x', ...window, limit: 100 })).items).toEqual(appX);
      });

      it('lists all runs without an app, across records and hours, at every page size', async () => {
        await expectPaged(h(), window, all);
      });

      it('lists a run taken over under another token once, from the record of the claim it is stored with', async () => {
        const { runs } = await h().allPages({ appName: 'pages-x', ...window, limit: 100 });
        expect(ids(runs).filter((id) => id === takenOver.logId)).toHaveLength(1);
        expect(ids(runs).indexOf(takenOver.logId)).toBe(0);
      });

      it('leaves out a run never recorded as sent; its job lists it', async () => {
        const { runs } = await h().allPages({ ...window, limit: 100 });
        expect(ids(runs)).not.toContain(unrecorded.logId);
        const { items } = await h().store.list({ jobId: unrecorded.jobId, limit: 10 });
        expect(ids(items)).toContain(unrecorded.logId);
      });

      it('filters by status, for an app and for all, across pages', async () => {
        for (const status of ['success', 'fail', 'running'] as const) {
          const expected = all.filter((r) => runStatus(r) === status);
          expect(expected.length).toBeGreaterThan(0);
          // All runs one at a time, an app's two at a time: both kinds of list, both page sizes.
          await expectPaged(h(), { ...window, status }, expected, [1]);
          const ofApp = appX.filter((r) => runStatus(r) === status);
          await expectPaged(h(), { appName: 'pages-x', ...window, status }, ofApp, [2]);
        }
      });

      it('keeps to the trigger time range', async () => {
        const from = hour + 70 * MINUTE_MS + 2;
        const to = hour + 130 * MINUTE_MS + 1;
        const expected = appX.filter((r) => r.triggerTime >= from && r.triggerTime <= to);
        expect(expected).toHaveLength(3);
        await expectPaged(h(), { appName: 'pages-x', from, to }, expected, FILTERED_PAGE_SIZES);
        expect((await h().allPages({ appName: 'pages-y', from, to, limit: 2 })).runs).toEqual([]);
      });

      it('finds runs days apart without a time range, whichever instance recorded them', async () => {
        await expectPaged(h(), { appName: 'sparse' }, sparse);
        const [recent, ...older] = sparse;
        const { runs, exhausted } = await h().allPages({ limit: 100 });
        expect(ids(runs)).toEqual(ids([recent as Run, ...all, ...older]));
        expect(exhausted).toBe(true);
      });

      it('rejects a cursor it did not make', async () => {
        await expect(
          h().store.list({ appName: 'pages-x', ...window, limit: 5, cursor: 'garbage' }),
        ).rejects.toBeInstanceOf(ValidationError);
        await expect(
          h().store.list({ ...window, limit: 5, from: window.to, to: window.from }),
        ).rejects.toBeInstanceOf(ValidationError);
      });
    });

    describe('list by app: a cursor while records are written', () => {
      it('goes on from its cursor when runs were recorded meanwhile: every run it had yet to list, once, in order', async () => {
        const h = await fresh();
        const hour = hourStartOf(Date.now() - 2 * HOUR_MS);
        const before: Run[] = [];
        for (let i = 0; i < 7; i++) {
          const at = hour + i * 9 * MINUTE_MS;
          before.push((await h.seedRun({ appName: 'moving', jobId: 540 + (i % 2), triggerTime: at })).run);
        }
        const first = await h.store.list({ appName: 'moving', limit: 2 });
        expect(first.items).toEqual(newestFirst(before).slice(0, 2));
        const later = [
          (await h.seedRun({ appName: 'moving', jobId: 540, triggerTime: Date.now() - MINUTE_MS })).run,
          (await h.seedRun({ appName: 'moving', jobId: 541, triggerTime: hour + 61 * MINUTE_MS })).run,
        ];
        const rest: Run[] = [];
        for (let cursor = first.nextCursor, pages = 0; cursor && pages < 20; pages++) {
          const page = await h.store.list({ appName: 'moving', limit: 2, cursor });
          rest.push(...page.items);
          cursor = page.nextCursor;
        }
        expect(repeated(ids([...first.items, ...rest]))).toEqual([]);
        expect(ids(rest.filter((r) => !ids(later).includes(r.logId)))).toEqual(
          ids(newestFirst(before).slice(2)),
        );
      });
    });

    describe('findUnfinished: the lost-run watch', () => {
      /** A whole minute, six hours back, ten minutes before its hour ends (sweeps cross into the next hour). */
      const t0 = hourStartOf(Date.now() - 6 * HOUR_MS) + 50 * MINUTE_MS;
      /** The first sweep that reads a record claimed at `t0`. */
      const settled = t0 + SETTLE_MS;
      const watched = (h: RunSeeder, nowMs: number, limit = 100) =>
        h.store.findUnfinished(nowMs, { limit, settleMs: SETTLE_MS });

      /** One sweep: the logIds of the runs past their deadline it returned, checked for repeats. */
      async function sweep(h: RunSeeder, nowMs: number, limit = 100): Promise<number[]> {
        const found = await watched(h, nowMs, limit);
        expect(repeated(ids(found.map((w) => w.run)))).toEqual([]);
        return found.filter((w) => w.pastDeadline).map((w) => w.run.logId);
      }

      it('returns a sent run past its deadline once its record has settled, as stored', async () => {
        const h = await fresh();
        const { run } = await h.seedRun(
          { jobId: 600, appName: 'watch', triggerTime: t0 },
          { deadline: t0 + MINUTE_MS },
        );
        // Past its deadline, but the record is not read until its dispatcher surely wrote it.
        expect(await watched(h, settled - 1_000)).toEqual([]);
        expect(await watched(h, settled + 1_000)).toEqual([{ run, pastDeadline: true }]);
      });

      it('drops a run that has its result, and a refused one, and never returns them', async () => {
        const h = await fresh();
        const token = h.store.newClaimToken(t0);
        const seed = async () =>
          (await h.seedRun({ jobId: 601, appName: 'watch', triggerTime: t0 }, { token, record: false })).run;
        const [finished, finishedLater, refused, late] = [
          await seed(),
          await seed(),
          await seed(),
          await seed(),
        ];
        const entry = (run: Run, deadline: number) => ({ logId: run.logId, appName: 'watch', deadline });
        await h.store.recordDispatch(token, [
          entry(finished as Run, t0 + MINUTE_MS),
          entry(finishedLater as Run, t0 + 10 * MINUTE_MS),
          entry(refused as Run, 0),
          entry(late as Run, t0 + MINUTE_MS),
        ]);
        await h.store.complete((finished as Run).logId, {
          handleCode: 200,
          handleMsg: '',
          handleTime: t0 + 1_000,
        });
        expect(await h.store.recordRefusal((refused as Run).logId, token, refusalAt(t0))).toBe(true);

        expect(await sweep(h, settled)).toEqual([(late as Run).logId]);
        // Finished before its deadline: not returned then, nor ever after.
        await h.store.complete((finishedLater as Run).logId, {
          handleCode: 500,
          handleMsg: 'x',
          handleTime: t0 + MINUTE_MS,
        });
        await h.store.complete((late as Run).logId, {
          handleCode: 500,
          handleMsg: 'lost',
          handleTime: settled,
        });
        for (let at = settled + MINUTE_MS; at <= t0 + 15 * MINUTE_MS; at += MINUTE_MS) {
          expect(await watched(h, at), `sweep at t0 + ${(at - t0) / MINUTE_MS} min`).toEqual([]);
        }
      });

      it('returns a run within its deadline once settled and every minute after, past its deadline once it has come', async () => {
        const h = await fresh();
        const deadline = t0 + 10 * MINUTE_MS; // a whole minute
        const { run } = await h.seedRun({ jobId: 602, appName: 'watch', triggerTime: t0 }, { deadline });
        expect(await watched(h, settled - 1_000)).toEqual([]);
        const first = Math.ceil(settled / MINUTE_MS) * MINUTE_MS;
        expect(await watched(h, first)).toEqual([{ run, pastDeadline: false }]);
        expect(await watched(h, first + 30_000)).toEqual([]);
        expect(await watched(h, first + MINUTE_MS)).toEqual([{ run, pastDeadline: false }]);
        const seen: boolean[] = [];
        for (let at = first + 2 * MINUTE_MS; at <= deadline; at += MINUTE_MS) {
          seen.push(...(await watched(h, at)).map((w) => w.pastDeadline));
        }
        expect(seen).toEqual([...Array((deadline - first) / MINUTE_MS - 2).fill(false), true]);
      });

      it('returns a run past a deadline that is not a whole minute within the minute after it', async () => {
        const h = await fresh();
        const deadline = t0 + 8 * MINUTE_MS + 12_345;
        const { run } = await h.seedRun({ jobId: 603, appName: 'watch', triggerTime: t0 }, { deadline });
        expect(await sweep(h, settled)).toEqual([]);
        expect(await sweep(h, deadline - 1)).toEqual([]);
        const found: number[] = [];
        for (let at = deadline; at <= deadline + MINUTE_MS && found.length === 0; at += 10_000) {
          found.push(...(await sweep(h, at)));
        }
        expect(found).toEqual([run.logId]);
      });

      it('keeps returning a run without a result to sweeps a minute apart at any second, and no more once it has one', async () => {
        const h = await fresh();
        const { run } = await h.seedRun(
          { jobId: 604, appName: 'watch', triggerTime: t0 },
          { deadline: t0 + MINUTE_MS },
        );
        const first = t0 + 4 * MINUTE_MS + 5_000;
        expect(await sweep(h, first)).toEqual([run.logId]);
        expect(await sweep(h, first + 30_000)).toEqual([]);
        // Sweeps every minute, five seconds past it: the run comes back at least every other sweep.
        const seen: boolean[] = [];
        for (let k = 1; k <= 6; k++) seen.push((await sweep(h, first + k * MINUTE_MS)).includes(run.logId));
        expect(
          seen.some((now, k) => !now && seen[k + 1] === false),
          `seen ${seen}`,
        ).toBe(false);
        expect(seen.slice(-2)).toContain(true);
        await h.store.complete(run.logId, {
          handleCode: 200,
          handleMsg: '',
          handleTime: first + 6 * MINUTE_MS,
        });
        for (let k = 7; k <= 10; k++) expect(await sweep(h, first + k * MINUTE_MS)).toEqual([]);
      });

      it('returns a run once per sweep even when records list it more than once', async () => {
        const h = await fresh();
        const t = t0 - 10 * MINUTE_MS;
        const tokenA = h.store.newClaimToken(t);
        const { run } = await h.seedRun(
          { jobId: 605, appName: 'watch', triggerTime: t },
          { token: tokenA, record: false },
        );
        const tokenB = h.store.newClaimToken(t0);
        const claim = { previousToken: tokenA, claimToken: tokenB, nowMs: t0, staleBeforeMs: t0 };
        expect(await h.store.reclaim(run.logId, claim)).toBe(true);
        const entry = { logId: run.logId, appName: 'watch', deadline: t0 + MINUTE_MS };
        await h.store.recordDispatch(tokenA, [entry]); // the old dispatcher's late record
        await h.store.recordDispatch(tokenB, [entry]);
        await h.store.recordDispatch(tokenB, [entry]); // the same record written twice
        const first = t0 + 4 * MINUTE_MS;
        expect(await sweep(h, first)).toEqual([run.logId]);
        expect(await sweep(h, first + MINUTE_MS)).toEqual([run.logId]);
        expect(await sweep(h, first + 2 * MINUTE_MS)).toEqual([run.logId]);
      });

      it("watches a run taken over under another token from that claim's record, not the old one", async () => {
        const h = await fresh();
        const t = t0 - 10 * MINUTE_MS;
        const tokenA = h.store.newClaimToken(t);
        const { run } = await h.seedRun(
          { jobId: 606, appName: 'watch', triggerTime: t },
          { token: tokenA, record: false },
        );
        const tokenB = h.store.newClaimToken(t0 + 2 * MINUTE_MS);
        const claim = {
          previousToken: tokenA,
          claimToken: tokenB,
          nowMs: t0 + 2 * MINUTE_MS,
          staleBeforeMs: t0,
        };
        expect(await h.store.reclaim(run.logId, claim)).toBe(true);
        await h.store.recordDispatch(tokenA, [
          { logId: run.logId, appName: 'watch', deadline: t + MINUTE_MS },
        ]);
        // Record A is settled and its deadline past, but the run is no longer A's (and record B is
        // not settled yet: its dispatcher may still be writing it).
        expect(await sweep(h, t0 + 2 * MINUTE_MS + SETTLE_MS - 1_000)).toEqual([]);
        await h.store.recordDispatch(tokenB, [
          { logId: run.logId, appName: 'watch', deadline: t0 + 3 * MINUTE_MS },
        ]);
        expect(await sweep(h, t0 + 6 * MINUTE_MS)).toEqual([run.logId]);
      });

      it('reads a backlog of records in one sweep when few of their runs are unfinished', async () => {
        const h = await fresh();
        // Six records of two finished runs each: several reads of about the limit (3) entries.
        for (let r = 0; r < 6; r++) {
          const at = t0 + r * 1_000;
          const token = h.store.newClaimToken(at);
          for (let i = 0; i < 2; i++) {
            await h.seedRun(
              { jobId: 607, appName: 'watch', triggerTime: at },
              { token, status: 'success', deadline: t0 + MINUTE_MS },
            );
          }
        }
        const { run: late } = await h.seedRun(
          { jobId: 607, appName: 'watch', triggerTime: t0 + 20_000 },
          { deadline: t0 + MINUTE_MS },
        );
        expect(await sweep(h, t0 + 5 * MINUTE_MS, 3)).toEqual([late.logId]);
      });

      // Regression (DynamoDB): more records in one hour than one query round made the watch go on
      // from a position outside its moved bound, and every sweep threw from then on.
      for (const limit of PAGE_SIZES) {
        it(`returns each of 16 unfinished runs in two hours once, about ${limit} a sweep, the rest left to the next`, async () => {
          const h = await fresh();
          const hourStart = hourStartOf(t0);
          const runs: Run[] = [];
          for (let i = 0; i < 16; i++) {
            // Thirteen records in one hour, three in the next.
            const at =
              i < 13 ? hourStart + 40 * MINUTE_MS + i * 15_000 : hourStart + HOUR_MS + (i - 13) * 15_000;
            const { run } = await h.seedRun(
              { jobId: 608, appName: 'watch', triggerTime: at },
              { token: h.store.newClaimToken(at), deadline: at + MINUTE_MS },
            );
            runs.push(run);
          }
          // Sweeps 100 ms apart (no run is due to be looked at again meanwhile), past every deadline.
          const start = hourStart + HOUR_MS + 5 * MINUTE_MS;
          const sweeps: number[][] = [];
          do {
            sweeps.push(await sweep(h, start + sweeps.length * 100, limit));
          } while ((sweeps.at(-1)?.length ?? 0) > 0 && sweeps.length <= runs.length + 1);
          expect(sweeps[0]?.length).toBeGreaterThanOrEqual(Math.min(limit, runs.length));
          if (limit < runs.length) expect(sweeps[0]?.length).toBeLessThan(runs.length);
          const found = sweeps.flat();
          expect(repeated(found)).toEqual([]);
          expect([...found].sort()).toEqual(ids(runs).sort());
          // A few minutes on, every one is looked at again.
          expect([...(await sweep(h, start + 3 * MINUTE_MS, 100))].sort()).toEqual(ids(runs).sort());
        });
      }
    });
  });
}
