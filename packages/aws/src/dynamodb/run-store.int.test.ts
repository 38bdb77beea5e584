import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '@tickring/core/common';
import { SETTINGS } from '@tickring/core/config';
import type { DispatchEntry } from '@tickring/core/runs';
import {
  firstPlannedLogId,
  jobIdOfLogId,
  type Run,
  UNPLANNED_LOG_ID_OFFSET,
  unplannedLogId,
  WATCH_AGAIN_MS,
} from '@tickring/core/runs';
import { RunSeeder, sentRun } from '@tickring/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CapacityRecorder, recordConsumedCapacity } from '../../../../test/consumed-capacity.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { DynamoRunStore } from './runs/run-store.js';

// The RunStore's behaviour is pinned by its contract suite (run-store.contract.int.test.ts runs it on
// DynamoDB Local); these tests keep what is DynamoDB's own: write costs, the claim token's form, the
// logId counters, and lists and watch sweeps that cross DynamoDB's query rounds.

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const EXECUTOR = 'http://127.0.0.1:9999/';

/** The trigger message the dispatcher stores for a typical XXL-style run (two executors, FIRST). */
const XXL_TRIGGER_MSG = [
  'Trigger type: CRON',
  'Executor group: xxl-job-executor-sample (AUTO)',
  'Address list: [http://10.0.1.23:9999/, http://10.0.1.24:9999/]',
  'Route strategy: FIRST',
  'Block strategy: SERIAL_EXECUTION',
  'Timeout: 0 s',
  'Retries left: 0',
  '>>>>>>>>>>> Trigger <<<<<<<<<<<',
  'address: http://10.0.1.23:9999/',
  'code: 200',
  'msg: ',
].join('\n');

/** DynamoDB's item size: attribute names plus values (strings in UTF-8, numbers ~1 byte per 2 digits + 1). */
function itemSizeBytes(item: Record<string, unknown>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    size += Buffer.byteLength(name);
    if (typeof value === 'string') size += Buffer.byteLength(value);
    else if (typeof value === 'number') {
      const digits = String(Math.abs(value)).replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
      size += Math.ceil(Math.max(1, digits.length) / 2) + 1;
    } else size += 1;
  }
  return size;
}

function hourStartOf(epochMs: number): number {
  return epochMs - (epochMs % HOUR_MS);
}

function ids(runs: readonly Run[]): number[] {
  return runs.map((r) => r.logId);
}

function newestFirst(runs: readonly Run[]): Run[] {
  return [...runs].sort((a, b) => b.triggerTime - a.triggerTime);
}

function expectNoDuplicates(logIds: readonly number[]): void {
  expect(logIds.filter((id, i) => logIds.indexOf(id) !== i)).toEqual([]);
}

/** Where the runs table keeps a run: its job's partition, its logId as the sort key. */
function runKey(logId: number) {
  return { pk: `J#${jobIdOfLogId(logId)}`, sk: logId };
}

/** The store of one set of isolated tables, seeding runs as the dispatcher does, and reading its raw items. */
class Harness extends RunSeeder {
  declare readonly store: DynamoRunStore;

  constructor(
    readonly env: TestResources,
    random?: () => number,
  ) {
    super(Harness.storeOn(env, random), () => Harness.storeOn(env));
  }

  static storeOn(env: TestResources, random?: () => number): DynamoRunStore {
    return new DynamoRunStore({
      doc: env.clients.doc,
      runsTable: env.resources.tables.runs,
      controlTable: env.resources.tables.control,
      retentionDays: 30,
      ...(random ? { random } : {}),
    });
  }

  async rawItem(logId: number) {
    const { Item } = await this.env.clients.doc.send(
      new GetCommand({ TableName: this.env.resources.tables.runs, Key: runKey(logId), ConsistentRead: true }),
    );
    return Item;
  }
}

describe('DynamoRunStore (DynamoDB Local)', () => {
  let env: TestResources;
  let h: Harness;
  let store: DynamoRunStore;
  let capacity: CapacityRecorder;

  beforeAll(async () => {
    env = await isolatedResources('runs');
    capacity = recordConsumedCapacity(env.clients.doc);
    h = new Harness(env);
    store = h.store;
  });
  afterAll(() => env?.close());

  describe('write costs (ReturnConsumedCapacity from DynamoDB Local)', () => {
    const cost = async (write: () => Promise<unknown>) => {
      const since = capacity.records.length;
      await write();
      const [record, ...more] = capacity.slice(since);
      expect(more).toEqual([]);
      return record;
    };

    it('writes a run as sent without any index entry, in one put when claimed or one transaction with its fire', async () => {
      const now = Date.now();
      const [logId = 0] = await store.allocateLogIds(12, 1);
      const run = sentRun(logId, {
        jobId: 12,
        appName: 'xxl-job-executor-sample',
        jobName: 'demo job: sync orders',
        dedupKey: `12#${now}`,
        triggerType: 'CRON',
        triggerTime: now,
        executorAddress: 'http://10.0.1.23:9999/',
        triggerMsg: XXL_TRIGGER_MSG,
      });
      const created = await cost(() => store.createFire(run.dedupKey, [run], store.newClaimToken(now)));
      // A transaction: the fire record and the run, 2 units each; no index entry.
      expect(created).toMatchObject({ command: 'TransactWriteItemsCommand', tableWcu: 4 });
      expect(created?.indexWcu).toEqual({});
      // The typical run stays under 1 KB, so each of its writes costs one unit.
      expect(itemSizeBytes((await h.rawItem(logId)) ?? {})).toBeLessThan(1024);

      const planned = sentRun(firstPlannedLogId(12), { jobId: 12, appName: 'a', triggerTime: now });
      const claimed = await cost(() => store.claim(planned, store.newClaimToken(now)));
      expect(claimed).toMatchObject({ command: 'PutItemCommand', tableWcu: 1 });
      expect(claimed?.indexWcu).toEqual({});
    });

    it('records what a dispatcher sent in one write, however many runs', async () => {
      const now = Date.now();
      const entries: DispatchEntry[] = Array.from({ length: 10 }, (_, i) => ({
        logId: unplannedLogId(13, i),
        appName: 'xxl-job-executor-sample',
        deadline: now + 600_000,
      }));
      // A store's first record of an hour also puts the hour in the hour index (once per store and hour).
      const fresh = Harness.storeOn(env);
      const since = capacity.records.length;
      await fresh.recordDispatch(fresh.newClaimToken(now), entries);
      const first = capacity.slice(since).sort((a, b) => a.command.localeCompare(b.command));
      expect(first).toMatchObject([
        { command: 'PutItemCommand', tableWcu: 1, indexWcu: {} },
        { command: 'UpdateItemCommand', tableWcu: 1, indexWcu: {} },
      ]);
      const recorded = await cost(() => fresh.recordDispatch(fresh.newClaimToken(now), entries));
      expect(recorded).toMatchObject({ command: 'UpdateItemCommand', tableWcu: 1 });
      expect(recorded?.indexWcu).toEqual({});
    });

    it('writes the outcome index only for a finished run whose consequences are pending, and when it clears it', async () => {
      const now = Date.now();
      const { run: plain } = await h.seedRun({ jobId: 14, appName: 'cost-app', triggerTime: now });
      const success = await cost(() =>
        store.complete(
          plain.logId,
          { handleCode: 200, handleMsg: '', handleTime: now },
          { markOutcomePending: false },
        ),
      );
      expect(success).toMatchObject({ tableWcu: 1 });
      expect(success?.indexWcu).toEqual({});

      const { run: failing } = await h.seedRun({ jobId: 14, appName: 'cost-app', triggerTime: now });
      const marked = await cost(() =>
        store.complete(failing.logId, { handleCode: 500, handleMsg: 'boom', handleTime: now }),
      );
      expect(marked).toMatchObject({ tableWcu: 1 });
      expect(marked?.indexWcu).toEqual({ outcomePending: 1 });
      const cleared = await cost(() => store.clearOutcomePending(failing.logId));
      expect(cleared).toMatchObject({ tableWcu: 1 });
      expect(cleared?.indexWcu).toEqual({ outcomePending: 1 });

      const { run: refused, token } = await h.seedRun({ jobId: 14, appName: 'cost-app', triggerTime: now });
      const refusal = await cost(() =>
        store.recordRefusal(refused.logId, token, {
          executorAddress: EXECUTOR,
          triggerCode: 500,
          triggerMsg: 'refused',
          dispatchedAt: now,
        }),
      );
      expect(refusal).toMatchObject({ tableWcu: 1 });
      expect(refusal?.indexWcu).toEqual({ outcomePending: 1 });
    });
  });

  describe('allocateLogIds', () => {
    it("counts a job's logIds from the first of its unplanned range, one after another", async () => {
      expect(await store.allocateLogIds(300, 3)).toEqual([
        unplannedLogId(300, 0),
        unplannedLogId(300, 1),
        unplannedLogId(300, 2),
      ]);
      const next = await store.allocateLogIds(300, 250);
      expect(next).toHaveLength(250);
      expect(next[0]).toBe(unplannedLogId(300, 3));
    });

    it('gives each job a counter of its own, in ranges that never meet', async () => {
      await store.allocateLogIds(301, 5);
      expect(await store.allocateLogIds(302, 5)).toEqual(
        Array.from({ length: 5 }, (_, i) => unplannedLogId(302, i)),
      );
      expect(await store.allocateLogIds(301, 1)).toEqual([unplannedLogId(301, 5)]);
      // Job 301's last possible logId is below job 302's first planned one.
      expect(unplannedLogId(301, UNPLANNED_LOG_ID_OFFSET - 1)).toBeLessThan(firstPlannedLogId(302));
    });
  });

  describe('claim tokens', () => {
    it('makes tokens of the hour and the claim time, distinct for distinct salts', () => {
      const at = Date.UTC(2024, 4, 6, 7, 59, 59, 123);
      const token = Harness.storeOn(env, () => 0.5).newClaimToken(at);
      expect(token).toMatch(/^2024-05-06T07\/\d+$/);
      expect(Harness.storeOn(env, () => 0.25).newClaimToken(at)).not.toBe(token);
      expect(Harness.storeOn(env, () => 0.5).newClaimToken(at)).toBe(token);
      expect(Harness.storeOn(env, () => 0.5).newClaimToken(at + 1)).not.toBe(token);
    });

    it('rejects a claim token it did not make', async () => {
      await expect(store.dispatchedUnder('not-a-token')).rejects.toBeInstanceOf(ValidationError);
      await expect(
        store.recordDispatch('2024-05-06/123', [{ logId: 1, appName: 'x', deadline: 0 }]),
      ).rejects.toBeInstanceOf(ValidationError);
    });
  });

  describe("list by job (the job's partition)", () => {
    it('pages through more runs than one read of the partition holds', async () => {
      const start = Date.now() - 3 * DAY_MS + HOUR_MS;
      const runs: Run[] = [];
      for (let batch = 0; batch < 6; batch++) {
        runs.push(
          ...(
            await Promise.all(
              Array.from({ length: 10 }, (_, i) => {
                const n = batch * 10 + i;
                return h.seedPlanned(n, { jobId: 403, appName: 'big-app', triggerTime: start + n * 10_000 });
              }),
            )
          ).map((s) => s.run),
        );
      }
      for (const n of [5, 25, 45, 65]) {
        runs.push(
          (await h.seedRun({ jobId: 403, appName: 'big-app', triggerTime: start + n * 10_000 + 5_000 })).run,
        );
      }
      const { runs: listed, exhausted, pages } = await h.allPages({ jobId: 403, limit: 25 });
      expectNoDuplicates(ids(listed));
      expect(ids(listed)).toEqual(ids(newestFirst(runs)));
      expect(exhausted).toBe(true);
      // Planned and unplanned runs merged across reads, every page full but the last.
      expect(pages.slice(0, 3).map((page) => page.length)).toEqual([25, 25, 14]);
    });
  });

  describe('list by app and all runs (the dispatch records)', () => {
    /** Records the given runs (already stored under `token`) as sent, in one record. */
    const record = (token: string, runs: readonly Run[]) =>
      store.recordDispatch(
        token,
        runs.map((r) => ({ logId: r.logId, appName: r.appName, deadline: r.triggerTime + 600_000 })),
      );

    it('pages through more records in one hour than one query round reads, every run once', async () => {
      // An hour of its own, two days back (outside `window`): 25 records of one run, 2 of two.
      const busyHour = hourStartOf(Date.now() - 2 * DAY_MS);
      const busy: Run[] = [];
      for (let i = 0; i < 27; i++) {
        const at = busyHour + MINUTE_MS + i * 60_000;
        const token = store.newClaimToken(at);
        const runs = [];
        for (let j = 0; j < (i % 13 === 0 ? 2 : 1); j++) {
          runs.push(
            (
              await h.seedRun(
                { jobId: 530, appName: 'pages-busy', triggerTime: at + j + 1 },
                { token, record: false },
              )
            ).run,
          );
        }
        await record(token, runs);
        busy.push(...runs);
      }
      const busyWindow = { from: busyHour, to: busyHour + HOUR_MS - 1 };
      for (const limit of [1, 7, 10, 11, 50]) {
        const { runs, exhausted, pages } = await h.allPages({ appName: 'pages-busy', ...busyWindow, limit });
        expect(ids(runs), `limit ${limit}`).toEqual(ids(newestFirst(busy)));
        expect(exhausted).toBe(true);
        expect(pages.every((p) => p.length <= limit)).toBe(true);
      }
    });

    it("rejects a job list's cursor in the list of all runs", async () => {
      const at = Date.now() - DAY_MS;
      for (const k of [0, 1]) await h.seedRun({ jobId: 540, appName: 'pages-cursor', triggerTime: at + k });
      const jobCursor = (await store.list({ jobId: 540, limit: 1 })).nextCursor;
      expect(jobCursor).toBeDefined();
      await expect(
        store.list({ from: at - HOUR_MS, to: at + HOUR_MS, limit: 5, cursor: jobCursor }),
      ).rejects.toBeInstanceOf(ValidationError);
    });
  });
});

/** The watch's default wait for a dispatch record to be written. */
const SETTLE_MS = SETTINGS.lostRunSettleSeconds.default * 1000;

describe('DynamoRunStore lost-run watch: findUnfinished (DynamoDB Local)', () => {
  // The watch keeps one cursor per table: each test gets tables of its own.
  let env: TestResources;
  let h: Harness;
  let store: DynamoRunStore;
  /** A whole minute, six hours back, ten minutes before an hour ends (sweeps cross into the next hour). */
  const t0 = hourStartOf(Date.now() - 6 * HOUR_MS) + 50 * MINUTE_MS;
  /** The runs past their deadline one sweep at `nowMs` returns. */
  const findOverdue = async (nowMs: number, limit: number) =>
    (await store.findUnfinished(nowMs, { limit, settleMs: SETTLE_MS }))
      .filter((w) => w.pastDeadline)
      .map((w) => w.run);

  beforeEach(async () => {
    env = await isolatedResources('overdue');
    h = new Harness(env);
    store = h.store;
  });
  afterEach(() => env?.close());

  /** One sweep: the logIds it returned, checked for repeats. */
  async function sweep(nowMs: number, limit = 100): Promise<number[]> {
    const found = ids(await findOverdue(nowMs, limit));
    expectNoDuplicates(found);
    return found;
  }

  it('returns a run again a minute later while it has no result, and no more once it has', async () => {
    const { run } = await h.seedRun(
      { jobId: 604, appName: 'watch', triggerTime: t0 },
      { token: store.newClaimToken(t0), deadline: t0 + MINUTE_MS },
    );
    const first = t0 + 4 * MINUTE_MS; // a whole minute, past the settle time
    expect(await sweep(first)).toEqual([run.logId]);
    expect(await sweep(first + 30_000)).toEqual([]);
    expect(await sweep(first + WATCH_AGAIN_MS - 1)).toEqual([]);
    expect(await sweep(first + WATCH_AGAIN_MS)).toEqual([run.logId]);
    expect(await sweep(first + WATCH_AGAIN_MS + 30_000)).toEqual([]);
    expect(await sweep(first + 2 * WATCH_AGAIN_MS)).toEqual([run.logId]);
    await store.complete(run.logId, {
      handleCode: 200,
      handleMsg: '',
      handleTime: first + 2 * WATCH_AGAIN_MS,
    });
    for (let at = first + 3 * WATCH_AGAIN_MS; at <= first + 6 * WATCH_AGAIN_MS; at += WATCH_AGAIN_MS) {
      expect(await sweep(at)).toEqual([]);
    }
  });

  // Regression: more records in one hour than one query round holds made the watch continue a
  // query with a start key outside its (moved) lower bound, and every sweep threw from then on.
  describe('one hour holding more records than one query round', () => {
    const hourStart = hourStartOf(t0);
    /** A whole minute of the same hour, after every record below has settled and is overdue. */
    const start = hourStart + 35 * MINUTE_MS;

    async function seedRecords(count: number, jobId: number): Promise<Run[]> {
      const runs: Run[] = [];
      for (let i = 0; i < count; i++) {
        const at = hourStart + MINUTE_MS + i * 15_000; // all inside the hour, the last before start - settle
        const { run } = await h.seedRun(
          { jobId, appName: 'watch', triggerTime: at },
          { token: store.newClaimToken(at), deadline: at + MINUTE_MS },
        );
        runs.push(run);
      }
      return runs;
    }

    for (const count of [25, 103]) {
      for (const limit of [1, 7, 10, 11, 500]) {
        it(`finds each of ${count} overdue runs once, ${limit} at most per sweep, without an error`, async () => {
          const runs = await seedRecords(count, 700 + limit);
          // Sweeps 100 ms apart, all within a minute: no run is due to be looked at again meanwhile.
          const sweeps: number[][] = [];
          do {
            sweeps.push(await sweep(start + sweeps.length * 100, limit));
          } while ((sweeps.at(-1)?.length ?? 0) > 0 && sweeps.length <= count + 1);
          // Every record holds one overdue run: a sweep stops at its limit and leaves the rest.
          expect(sweeps[0]?.length).toBe(Math.min(limit, count));
          const found = sweeps.flat();
          expectNoDuplicates(found);
          expect([...found].sort()).toEqual(ids(runs).sort());
          // A minute on, all are looked at again from the watch pages (one per sweep, in one hour).
          const again = await sweep(start + 3 * MINUTE_MS, 1_000);
          expect([...again].sort()).toEqual(ids(runs).sort());
        });
      }
    }
  });
});
