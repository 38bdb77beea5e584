/**
 * What the use-cases rely on from a JobStore, run over each adapter: in memory (unit,
 * packages/testing/src/memory/job-store.contract.test.ts) and on DynamoDB Local (integration,
 * packages/aws/src/dynamodb/job-store.contract.int.test.ts). Each test gets a fresh, empty store.
 */

import { ConflictError, NotFoundError, ValidationError } from '@tickring/core/common';
import type {
  Job,
  JobQuery,
  JobStore,
  OutcomeHistory,
  PlannableJob,
  ScheduleAdvance,
} from '@tickring/core/jobs';
import { describe, expect, it } from 'vitest';
import { makeJob } from '../jobs.js';
import { allPages, PAGE_SIZES, refusal } from './pages.js';

/** What the suite asks of a new store. */
export interface JobStoreContractOptions {
  /** Shards of the due list (the tick queries shards 0 .. shardCount-1). */
  readonly shardCount: number;
}

const SHARDS = 3;
const T = Date.UTC(2030, 0, 1, 12, 0, 0);

const ids = (jobs: readonly { id: number }[]) => jobs.map((j) => j.id);
const ascending = (values: readonly number[]) => [...values].sort((a, b) => a - b);

export function jobStoreContract(
  label: string,
  newStore: (options: JobStoreContractOptions) => Promise<JobStore>,
): void {
  const fresh = () => newStore({ shardCount: SHARDS });

  /** Creates the jobs one by one (so a failure names its job). */
  async function seeded(
    jobs: readonly Job[],
    plans: (job: Job) => PlannableJob | undefined = () => undefined,
  ) {
    const store = await fresh();
    for (const job of jobs) {
      const { job: _job, ...plan } = plans(job) ?? { job };
      await store.create(job, plan);
    }
    return store;
  }

  /** The ids due before `untilMs` in any shard. */
  async function dueIds(store: JobStore, untilMs: number): Promise<number[]> {
    const shards = await Promise.all(
      Array.from({ length: SHARDS }, (_, shard) => store.queryDue(shard, untilMs, 100)),
    );
    return ascending(shards.flatMap((page) => ids(page.items)));
  }

  const advanceOf = (id: number, from: number, to: number | null, extra: Partial<ScheduleAdvance> = {}) => ({
    id,
    expectedNext: from,
    nextTriggerTime: to,
    triggerLastTime: from,
    nextLogIdBlock: 1_000,
    planDue: from,
    ...extra,
  });

  describe(`JobStore contract (${label})`, () => {
    it('gives out ids 1, 2, 3, … and never one twice, even to concurrent callers', async () => {
      const store = await fresh();
      expect([await store.allocateId(), await store.allocateId(), await store.allocateId()]).toEqual([
        1, 2, 3,
      ]);
      const concurrent = await Promise.all(Array.from({ length: 20 }, () => store.allocateId()));
      expect(ascending(concurrent)).toEqual(Array.from({ length: 20 }, (_, i) => i + 4));
    });

    it('creates a job once: a second create of its id is a ConflictError and changes nothing', async () => {
      const store = await fresh();
      const job = makeJob({ id: 7, name: 'first' });
      await store.create(job);
      expect(await refusal(store.create(makeJob({ id: 7, name: 'second' })))).toBeInstanceOf(ConflictError);
      expect(await store.get(7)).toEqual(job);
      // Of concurrent creates of one id, exactly one wins.
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => store.create(makeJob({ id: 8, name: `racer ${i}` }))),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConflictError);
    });

    it('reads a job back as written; one that is not due (stopped) keeps no next fire', async () => {
      const running = makeJob({
        id: 1,
        appName: 'billing',
        childJobIds: [2, 3],
        alarmWebhook: 'https://hooks.example/alarm',
        executorParam: 'region=eu',
        triggerNextTime: T,
        triggerLastTime: T - 1_000,
        slowUntil: T + 60_000,
        workflowId: 4,
        scheduleRevision: 3,
        version: 5,
      });
      const stopped = makeJob({ id: 2, triggerStatus: 'STOPPED', triggerNextTime: T });
      const store = await seeded([running, stopped]);
      expect(await store.get(1)).toEqual(running);
      expect(await store.get(2)).toEqual({ ...stopped, triggerNextTime: null });
      expect(await store.get(3)).toBeUndefined();
    });

    it('reads several jobs at once with their plan state, each once, leaving missing ids out', async () => {
      const a = makeJob({ id: 1, triggerNextTime: T });
      const b = makeJob({ id: 2, triggerNextTime: T });
      const store = await fresh();
      await store.create(a, { logIdBlock: 500, lastPlanDue: T - 5_000, prevPlanDue: T - 10_000 });
      await store.create(b);
      const byId = (list: readonly PlannableJob[]) => [...list].sort((x, y) => x.job.id - y.job.id);
      expect(byId(await store.getPlannable([2, 1, 1, 99]))).toEqual([
        { job: a, logIdBlock: 500, lastPlanDue: T - 5_000, prevPlanDue: T - 10_000 },
        { job: b },
      ]);
      expect(ids(await store.getMany([99, 2, 2, 1])).sort()).toEqual([1, 2]);
      expect(await store.getMany([])).toEqual([]);
      expect(await store.getPlannable([42])).toEqual([]);
    });

    it('reads more jobs at once than one DynamoDB batch holds (100), each once', async () => {
      const store = await fresh();
      const all = Array.from({ length: 130 }, (_, i) => makeJob({ id: i + 1 }));
      await Promise.all(all.map((job) => store.create(job)));
      const asked = [...ids(all), 1_000, 1_001, ...ids(all.slice(0, 10))];
      expect(ascending(ids(await store.getMany(asked)))).toEqual(ids(all));
      expect(ascending((await store.getPlannable(asked)).map((p) => p.job.id))).toEqual(ids(all));
    });

    describe('replace (compare-and-set on what was read)', () => {
      it('replaces the job as read, with the plan state given (none when none is given)', async () => {
        const store = await fresh();
        const job = makeJob({ id: 1, triggerNextTime: T });
        await store.create(job, { logIdBlock: 100, lastPlanDue: T - 5_000 });
        const edited = { ...job, name: 'edited', version: 2 };
        await store.replace(edited, job, { logIdBlock: 132 });
        expect(await store.getPlannable([1])).toEqual([{ job: edited, logIdBlock: 132 }]);
        const again = { ...edited, name: 'again', version: 3 };
        await store.replace(again, edited);
        const [stored] = await store.getPlannable([1]);
        expect(stored?.job).toEqual(again);
        expect([stored?.logIdBlock, stored?.lastPlanDue, stored?.prevPlanDue]).toEqual([
          undefined,
          undefined,
          undefined,
        ]);
      });

      it('refuses a write based on a stale version or schedule state (ConflictError), and a missing job (NotFoundError)', async () => {
        const store = await fresh();
        const job = makeJob({ id: 1, triggerNextTime: T, version: 4 });
        await store.create(job);
        const edited = { ...job, name: 'edited', version: 5 };
        expect(await refusal(store.replace(edited, { ...job, version: 3 }))).toBeInstanceOf(ConflictError);
        expect(await refusal(store.replace(edited, { ...job, triggerNextTime: T + 1_000 }))).toBeInstanceOf(
          ConflictError,
        );
        expect(
          await refusal(store.replace(edited, { ...job, triggerStatus: 'STOPPED', triggerNextTime: null })),
        ).toBeInstanceOf(ConflictError);
        expect(await store.get(1)).toEqual(job);
        expect(await refusal(store.replace(makeJob({ id: 2 }), makeJob({ id: 2 })))).toBeInstanceOf(
          NotFoundError,
        );
        expect(await store.get(2)).toBeUndefined();
      });

      it("cannot undo a tick's advance: a save based on the read before it is a conflict", async () => {
        const store = await fresh();
        const job = makeJob({ id: 1, triggerNextTime: T });
        await store.create(job);
        expect(await store.advanceSchedule(advanceOf(1, T, T + 1_000))).toBe(true);
        const edited = { ...job, name: 'edited', version: 2 };
        expect(await refusal(store.replace(edited, job))).toBeInstanceOf(ConflictError);
        expect(await store.get(1)).toMatchObject({ name: job.name, triggerNextTime: T + 1_000, version: 1 });
      });

      it('starts a stopped job read as stopped, and then refuses a save that still expects it stopped', async () => {
        const store = await fresh();
        const stopped = makeJob({ id: 1, triggerStatus: 'STOPPED', triggerNextTime: null });
        await store.create(stopped);
        const started = { ...stopped, triggerStatus: 'RUNNING' as const, triggerNextTime: T, version: 2 };
        await store.replace(started, stopped);
        expect(await store.get(1)).toEqual(started);
        expect(
          await refusal(
            store.replace({ ...started, name: 'x', version: 3 }, { ...started, triggerNextTime: null }),
          ),
        ).toBeInstanceOf(ConflictError);
      });

      it('lets exactly one of many concurrent writers of the same read win', async () => {
        const store = await fresh();
        const job = makeJob({ id: 1, triggerNextTime: T });
        await store.create(job);
        const results = await Promise.allSettled(
          Array.from({ length: 8 }, (_, i) =>
            store.replace({ ...job, name: `writer ${i}`, version: 2 }, job),
          ),
        );
        const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
        expect(won).toHaveLength(1);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConflictError);
        expect((await store.get(1))?.name).toBe(`writer ${won[0]}`);
      });
    });

    it('deletes a job once: then it is gone from every read, and a second delete is a NotFoundError', async () => {
      const store = await seeded([makeJob({ id: 1, appName: 'solo', triggerNextTime: T })]);
      expect(await store.existsForApp('solo')).toBe(true);
      expect(await dueIds(store, T + 1)).toEqual([1]);
      await store.delete(1);
      expect(await store.get(1)).toBeUndefined();
      expect(await store.getMany([1])).toEqual([]);
      expect((await store.list({ limit: 10 })).items).toEqual([]);
      expect(await dueIds(store, T + 1)).toEqual([]);
      expect(await store.existsForApp('solo')).toBe(false);
      expect(await refusal(store.delete(1))).toBeInstanceOf(NotFoundError);
    });

    it('tells whether an app has any job', async () => {
      const store = await seeded([makeJob({ id: 1, appName: 'has-jobs', triggerStatus: 'STOPPED' })]);
      expect(await store.existsForApp('has-jobs')).toBe(true);
      expect(await store.existsForApp('has-none')).toBe(false);
    });

    it('lists all jobs, one app’s, and by status, page by page at sizes 1, 2, 3 and 100: each job once, ascending within a page', async () => {
      const apps = ['app-a', 'app-b', 'app-c'];
      const jobs = Array.from({ length: 14 }, (_, i) =>
        makeJob({
          id: i + 1,
          appName: apps[(i + 1) % 3] as string,
          triggerStatus: (i + 1) % 4 === 0 ? 'STOPPED' : 'RUNNING',
          triggerNextTime: (i + 1) % 4 === 0 ? null : T + (i + 1) * 1_000,
        }),
      );
      const store = await seeded(jobs);
      const queries: Omit<JobQuery, 'limit' | 'cursor'>[] = [
        {},
        { appName: 'app-b' },
        { triggerStatus: 'STOPPED' },
        { appName: 'app-a', triggerStatus: 'RUNNING' },
        { appName: 'app-none' },
      ];
      for (const query of queries) {
        const expected = jobs.filter(
          (j) =>
            (query.appName === undefined || j.appName === query.appName) &&
            (query.triggerStatus === undefined || j.triggerStatus === query.triggerStatus),
        );
        for (const limit of PAGE_SIZES) {
          const what = `${JSON.stringify(query)} limit ${limit}`;
          const pages = await allPages(limit, (cursor) => store.list({ ...query, limit, cursor }));
          const listed = pages.flatMap((p) => p.items);
          expect(ascending(ids(listed)), what).toEqual(ids(expected));
          expect(new Set(ids(listed)).size, what).toBe(listed.length);
          for (const page of pages) expect(ids(page.items), what).toEqual(ascending(ids(page.items)));
          for (const job of listed) expect(job, what).toEqual(jobs[job.id - 1]);
        }
      }
    });

    it('refuses a cursor of another list, or one it never gave out, as a ValidationError', async () => {
      const store = await seeded(
        Array.from({ length: 6 }, (_, i) => makeJob({ id: i + 1, appName: i % 2 === 0 ? 'app-a' : 'app-b' })),
      );
      const ofAll = (await store.list({ limit: 2 })).nextCursor;
      const ofA = (await store.list({ appName: 'app-a', limit: 1 })).nextCursor;
      expect(ofAll).toBeDefined();
      expect(ofA).toBeDefined();
      for (const [query, cursor] of [
        [{ appName: 'app-a' }, ofAll],
        [{ appName: 'app-b' }, ofA],
        [{}, ofA],
        [{}, 'not-a-cursor'],
      ] as const) {
        expect(await refusal(store.list({ ...query, limit: 2, cursor }))).toBeInstanceOf(ValidationError);
      }
    });

    it('lists the due jobs of each shard (running, next fire before the bound), soonest first, each in exactly one shard, at page sizes 1, 2, 3 and 100', async () => {
      const until = T + 8_000;
      const jobs = Array.from({ length: 20 }, (_, i) => {
        const id = i + 1;
        // Next fires out of id order, several on the same millisecond.
        return id % 5 === 0
          ? makeJob({ id, triggerStatus: 'STOPPED', triggerNextTime: null })
          : makeJob({ id, triggerNextTime: T + ((id * 7) % 10) * 1_000 });
      });
      const store = await seeded(jobs);
      const expected = jobs.filter((j) => j.triggerNextTime !== null && j.triggerNextTime < until);
      expect(expected.length).toBeGreaterThan(10);
      for (const limit of PAGE_SIZES) {
        const seen: number[] = [];
        for (let shard = 0; shard < SHARDS; shard++) {
          const what = `shard ${shard} limit ${limit}`;
          const pages = await allPages(limit, (cursor) => store.queryDue(shard, until, limit, cursor));
          const refs = pages.flatMap((p) => p.items);
          for (const ref of refs)
            expect(ref, what).toEqual({ id: ref.id, nextTriggerTime: jobs[ref.id - 1]?.triggerNextTime });
          const times = refs.map((r) => r.nextTriggerTime);
          expect(times, what).toEqual(ascending(times));
          seen.push(...ids(refs));
        }
        expect(ascending(seen), `limit ${limit}`).toEqual(ids(expected));
      }
      // Jobs of other shards never show up past the shard count.
      expect((await store.queryDue(SHARDS, until, 100)).items).toEqual([]);
    });

    describe('advanceSchedule (compare-and-set on the next fire read)', () => {
      it('moves the next fire and keeps the plan: the reserved logIds, where it began, and the plan before', async () => {
        const store = await fresh();
        const job = makeJob({ id: 1, triggerNextTime: T });
        await store.create(job, { logIdBlock: 100 });
        expect(
          await store.advanceSchedule(
            advanceOf(1, T, T + 5_000, { triggerLastTime: T + 4_000, nextLogIdBlock: 132 }),
          ),
        ).toBe(true);
        const [first] = await store.getPlannable([1]);
        expect(first).toMatchObject({
          job: { ...job, triggerNextTime: T + 5_000, triggerLastTime: T + 4_000 },
          logIdBlock: 132,
          lastPlanDue: T,
        });
        expect(first?.prevPlanDue).toBeUndefined();

        expect(
          await store.advanceSchedule(advanceOf(1, T + 5_000, T + 10_000, { nextLogIdBlock: 164 })),
        ).toBe(true);
        expect(await store.getPlannable([1])).toMatchObject([
          { logIdBlock: 164, lastPlanDue: T + 5_000, prevPlanDue: T },
        ]);
        // The version is the definition's: an advance leaves it.
        expect((await store.get(1))?.version).toBe(job.version);

        // A plan after a misfire is none of the schedule's from its due: both plans are forgotten.
        expect(
          await store.advanceSchedule(
            advanceOf(1, T + 10_000, T + 20_000, { nextLogIdBlock: 196, planDue: undefined }),
          ),
        ).toBe(true);
        const [misfired] = await store.getPlannable([1]);
        expect(misfired?.logIdBlock).toBe(196);
        expect([misfired?.lastPlanDue, misfired?.prevPlanDue]).toEqual([undefined, undefined]);
        expect(misfired?.job.triggerNextTime).toBe(T + 20_000);
      });

      it('refuses an advance from a stale next fire, of a stopped job, or of a missing one; of concurrent advances one wins', async () => {
        const store = await seeded([
          makeJob({ id: 1, triggerNextTime: T }),
          makeJob({ id: 2, triggerStatus: 'STOPPED', triggerNextTime: null }),
        ]);
        expect(await store.advanceSchedule(advanceOf(1, T - 1_000, T + 1_000))).toBe(false);
        expect(await store.advanceSchedule(advanceOf(2, T, T + 1_000))).toBe(false);
        expect(await store.advanceSchedule(advanceOf(3, T, T + 1_000))).toBe(false);
        expect(await store.get(3)).toBeUndefined();
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => store.advanceSchedule(advanceOf(1, T, T + (i + 1) * 1_000))),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect((await store.get(1))?.triggerNextTime).toBe(T + (results.indexOf(true) + 1) * 1_000);
      });

      it('ends the schedule on a null next fire: the job stops and leaves the due list', async () => {
        const store = await seeded([makeJob({ id: 1, triggerNextTime: T })]);
        expect(await dueIds(store, T + 100_000)).toEqual([1]);
        expect(await store.advanceSchedule(advanceOf(1, T, null))).toBe(true);
        expect(await store.get(1)).toMatchObject({
          triggerStatus: 'STOPPED',
          triggerNextTime: null,
          triggerLastTime: T,
        });
        expect(await dueIds(store, T + 100_000)).toEqual([]);
        expect(await store.advanceSchedule(advanceOf(1, T, T + 1_000))).toBe(false);
      });

      it('counts the fires of a bounded schedule in the advance itself, and keeps why it ended', async () => {
        const bounded = makeJob({
          id: 1,
          triggerNextTime: T,
          maxRuns: 5,
          scheduledFires: 1,
          endAt: T + 60_000,
        });
        const store = await seeded([bounded]);
        expect(await store.advanceSchedule(advanceOf(1, T, T + 2_000, { scheduledFires: 3 }))).toBe(true);
        expect(await store.get(1)).toMatchObject({
          triggerNextTime: T + 2_000,
          scheduledFires: 3,
          maxRuns: 5,
        });
        // A retried advance from the same read changes nothing (the count is not moved twice).
        expect(await store.advanceSchedule(advanceOf(1, T, T + 2_000, { scheduledFires: 3 }))).toBe(false);
        const ended = { reason: 'maxRuns' as const, at: T + 1_500 };
        expect(await store.advanceSchedule(advanceOf(1, T + 2_000, null, { scheduledFires: 5, ended }))).toBe(
          true,
        );
        expect(await store.get(1)).toMatchObject({
          triggerStatus: 'STOPPED',
          triggerNextTime: null,
          scheduledFires: 5,
          scheduleEnded: ended,
          endAt: T + 60_000,
          scheduleRevision: bounded.scheduleRevision,
        });
        expect(await dueIds(store, T + 100_000)).toEqual([]);
      });
    });

    it('keeps the bounds, jitter, count and end reason a save writes, and drops the ones it clears', async () => {
      const job = makeJob({
        id: 1,
        startAt: T,
        endAt: T + 86_400_000,
        maxRuns: 3,
        jitterSeconds: 30,
        scheduledFires: 3,
        scheduleEnded: { reason: 'maxRuns', at: T + 10_000 },
        triggerStatus: 'STOPPED',
        triggerNextTime: null,
      });
      const store = await seeded([job]);
      expect(await store.get(1)).toEqual(job);
      const {
        startAt: _s,
        endAt: _e,
        maxRuns: _m,
        scheduledFires: _f,
        scheduleEnded: _r,
        ...cleared
      } = { ...job, version: job.version + 1 };
      await store.replace(cleared, job);
      const read = await store.get(1);
      expect(read).toEqual(cleared);
      expect(read && 'maxRuns' in read).toBe(false);
    });

    it('keeps a job’s one-off exceptions through a save and an advance, and drops them when a save clears them', async () => {
      const job = makeJob({
        id: 1,
        triggerNextTime: T + 9_000,
        occurrenceExceptions: [
          { at: T + 4_000, action: 'skip', reason: 'holiday', by: 'ana', createdAt: T },
          { at: T + 8_000, action: 'move', to: T + 9_000, by: 'bob', createdAt: T + 1 },
        ],
      });
      const store = await seeded([job]);
      expect(await store.get(1)).toEqual(job);
      expect(await store.advanceSchedule(advanceOf(1, T + 9_000, T + 12_000))).toBe(true);
      expect((await store.get(1))?.occurrenceExceptions).toEqual(job.occurrenceExceptions);
      const advanced = await store.get(1);
      if (!advanced) throw new Error('job 1 is gone');
      const { occurrenceExceptions: _x, ...cleared } = { ...advanced, version: advanced.version + 1 };
      await store.replace(cleared, advanced);
      const read = await store.get(1);
      expect(read).toEqual(cleared);
      expect(read && 'occurrenceExceptions' in read).toBe(false);
    });

    it('keeps the calendars a save writes (read back by get, getMany and the tick’s read), and drops them when cleared', async () => {
      const job = makeJob({
        id: 1,
        calendars: { only: ['cn-workdays', 'de-workdays'], exclude: ['cn-holidays'] },
        triggerNextTime: T,
      });
      const store = await seeded([job]);
      expect(await store.get(1)).toEqual(job);
      expect(await store.getMany([1])).toEqual([job]);
      expect((await store.getPlannable([1]))[0]?.job).toEqual(job);
      const { calendars: _c, ...cleared } = { ...job, version: job.version + 1 };
      await store.replace(cleared, job);
      const read = await store.get(1);
      expect(read).toEqual(cleared);
      expect(read && 'calendars' in read).toBe(false);
    });

    it('lists the jobs with a last plan (any status) with their plan state, each once, at page sizes 1, 2, 3 and 100', async () => {
      const jobs = Array.from({ length: 9 }, (_, i) =>
        makeJob({
          id: i + 1,
          triggerStatus: i % 3 === 2 ? 'STOPPED' : 'RUNNING',
          triggerNextTime: i % 3 === 2 ? null : T,
        }),
      );
      const plans = (job: Job): PlannableJob =>
        job.id % 2 === 1
          ? { job, logIdBlock: job.id * 100, lastPlanDue: T - job.id * 1_000 }
          : { job, logIdBlock: job.id * 100 };
      const store = await seeded(jobs, plans);
      const expected = jobs.filter((j) => j.id % 2 === 1).map(plans);
      for (const limit of PAGE_SIZES) {
        const pages = await allPages(limit, (cursor) => store.listLastPlans(limit, cursor));
        const listed = pages.flatMap((p) => p.items).sort((a, b) => a.job.id - b.job.id);
        expect(listed, `limit ${limit}`).toEqual(expected);
      }
    });

    it('marks a job slow until a time, and never creates a job it does not have', async () => {
      const job = makeJob({ id: 1, triggerNextTime: T });
      const store = await seeded([job]);
      await store.markSlow(1, T + 60_000);
      expect(await store.get(1)).toEqual({ ...job, slowUntil: T + 60_000 });
      await store.markSlow(2, T + 60_000);
      expect(await store.get(2)).toBeUndefined();
      expect((await store.list({ limit: 10 })).items.map((j) => j.id)).toEqual([1]);
    });
  });

  describe(`${label}: failure policy and deadline on the job`, () => {
    it('keeps a job’s failure policy, deadline and pause as written', async () => {
      const job = makeJob({
        id: 1,
        triggerStatus: 'STOPPED',
        triggerNextTime: null,
        failurePolicy: { pauseAfter: { failures: 2, ofLast: 4 }, resumeAfterSeconds: 600 },
        deadline: { time: '06:00', timeZone: 'Europe/Berlin', days: 'weekdays' },
        deadlineSetAt: T - 1_000,
        pausedBy: { reason: 'failurePolicy', at: T, failures: 2, ofLast: 4, resumeAt: T + 600_000 },
      });
      const store = await seeded([job]);
      expect(await store.get(1)).toEqual(job);
      const { pausedBy: _p, ...started } = job;
      const next = { ...started, triggerStatus: 'RUNNING' as const, triggerNextTime: T + 5_000, version: 2 };
      await store.replace(next, job);
      expect(await store.get(1)).toEqual(next);
    });
  });

  describe(`${label}: outcome history and deadline claims`, () => {
    const history = (revision: number, logIds: number[]): OutcomeHistory => ({
      revision,
      recent: logIds.map((logId) => ({ logId, failed: logId % 2 === 0 })),
      lastSuccessAt: T + revision,
    });

    it('creates a history only when none is stored, then replaces it only at the revision read', async () => {
      const store = await seeded([makeJob({ id: 1 })]);
      expect(await store.getOutcomeHistory(1)).toBeUndefined();
      expect(await store.putOutcomeHistory(1, history(1, [10]), 0)).toBe(true);
      expect(await store.putOutcomeHistory(1, history(1, [11]), 0), 'a second first write').toBe(false);
      expect(await store.getOutcomeHistory(1)).toEqual(history(1, [10]));
      expect(await store.putOutcomeHistory(1, history(2, [10, 12]), 1)).toBe(true);
      expect(await store.putOutcomeHistory(1, history(2, [10, 13]), 1), 'a stale revision').toBe(false);
      expect(await store.getOutcomeHistory(1)).toEqual(history(2, [10, 12]));
    });

    it('lets exactly one of two concurrent writers at one revision win', async () => {
      const store = await seeded([makeJob({ id: 1 })]);
      await store.putOutcomeHistory(1, history(1, [10]), 0);
      const results = await Promise.all([
        store.putOutcomeHistory(1, history(2, [10, 12]), 1),
        store.putOutcomeHistory(1, history(2, [10, 14]), 1),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('keeps each job’s history apart, and leaves the job itself as it was', async () => {
      const job = makeJob({ id: 1, triggerNextTime: T });
      const store = await seeded([job, makeJob({ id: 2 })]);
      await store.putOutcomeHistory(1, history(1, [10]), 0);
      expect(await store.getOutcomeHistory(2)).toBeUndefined();
      expect(await store.get(1)).toEqual(job);
    });

    it('gives a window’s missed-deadline claim to its first caller only, per job and window', async () => {
      const store = await seeded([makeJob({ id: 1 }), makeJob({ id: 2 })]);
      const claims = await Promise.all([store.claimDeadlineMiss(1, T), store.claimDeadlineMiss(1, T)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.claimDeadlineMiss(1, T)).toBe(false);
      expect(await store.claimDeadlineMiss(2, T), 'another job').toBe(true);
      expect(await store.claimDeadlineMiss(1, T + 86_400_000), 'the next window').toBe(true);
    });

    it('gives a window’s dead-man claim to its first caller only, apart from the deadline claims', async () => {
      const store = await seeded([makeJob({ id: 1 }), makeJob({ id: 2 })]);
      const claims = await Promise.all([
        store.claimFiresUnexplained(1, T),
        store.claimFiresUnexplained(1, T),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.claimFiresUnexplained(1, T)).toBe(false);
      expect(await store.claimFiresUnexplained(2, T), 'another job').toBe(true);
      expect(await store.claimFiresUnexplained(1, T + 900_000), 'the next window').toBe(true);
      expect(await store.claimDeadlineMiss(1, T), 'a deadline claim of the same time').toBe(true);
    });
  });
}
