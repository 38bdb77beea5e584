import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '@tickring/core/common';
import { SETTINGS } from '@tickring/core/config';
import type { DispatchEntry, RunQuery } from '@tickring/core/runs';
import {
  firstPlannedLogId,
  jobIdOfLogId,
  MAX_HANDLE_MSG,
  type Run,
  type RunStatus,
  runStatus,
  TRIGGER_CODE,
  UNPLANNED_LOG_ID_OFFSET,
  unplannedLogId,
} from '@tickring/core/runs';
import { makeRun } from '@tickring/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CapacityRecorder, recordConsumedCapacity } from '../../../../test/consumed-capacity.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { DynamoRunStore } from './runs/run-store.js';
import { WATCH_AGAIN_MS } from './runs/watch.js';

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

/** A run as the dispatcher writes it when it claims a fire: routed to an executor, recorded as sent. */
function sentRun(logId: number, fields: Partial<Run> & Pick<Run, 'jobId' | 'appName' | 'triggerTime'>): Run {
  return makeRun({
    logId,
    dedupKey: `test#${logId}`,
    scheduledTime: fields.triggerTime,
    dispatchedAt: fields.triggerTime,
    executorAddress: EXECUTOR,
    triggerCode: 200,
    ...fields,
  });
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

/** The store of one set of isolated tables, with the helpers the tests share. */
class Harness {
  readonly store: DynamoRunStore;

  constructor(
    readonly env: TestResources,
    random?: () => number,
  ) {
    this.store = Harness.storeOn(env, random);
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

  async stored(logId: number): Promise<Run> {
    const run = await this.store.get(logId);
    if (!run) throw new Error(`run ${logId} is not stored`);
    return run;
  }

  /**
   * Records an unplanned run of `fields.jobId` as the dispatcher does (new logId, fire + run in one
   * transaction, claimed under `token`, by default one of its trigger time). Unless `record` is
   * false, it is then recorded as sent under that token, with `deadline`. With `status` the run is
   * brought there (success / fail by its result).
   */
  async seedRun(
    fields: Partial<Run> & Pick<Run, 'jobId' | 'appName' | 'triggerTime'>,
    options: { status?: RunStatus; record?: boolean; token?: string; deadline?: number } = {},
  ): Promise<{ run: Run; token: string }> {
    const [logId] = await this.store.allocateLogIds(fields.jobId, 1);
    if (logId === undefined) throw new Error('no logId');
    return this.seed(sentRun(logId, fields), options, (run, token) =>
      this.store.createFire(run.dedupKey, [run], token),
    );
  }

  /** Like `seedRun`, for the job's `n`-th planned run (claimed with its planned logId, one put). */
  async seedPlanned(
    n: number,
    fields: Partial<Run> & Pick<Run, 'jobId' | 'appName' | 'triggerTime'>,
    options: { status?: RunStatus; record?: boolean; token?: string; deadline?: number } = {},
  ): Promise<{ run: Run; token: string }> {
    const run = sentRun(firstPlannedLogId(fields.jobId) + n, { triggerType: 'CRON', ...fields });
    return this.seed(run, options, (r, token) => this.store.claim(r, token));
  }

  private async seed(
    run: Run,
    options: { status?: RunStatus; record?: boolean; token?: string; deadline?: number },
    write: (run: Run, token: string) => Promise<unknown>,
  ): Promise<{ run: Run; token: string }> {
    const token = options.token ?? this.store.newClaimToken(run.triggerTime);
    expect(await write(run, token)).toEqual({ created: true });
    if (options.record ?? true) {
      await this.store.recordDispatch(token, [
        { logId: run.logId, appName: run.appName, deadline: options.deadline ?? run.triggerTime + 600_000 },
      ]);
    }
    if (options.status === 'success' || options.status === 'fail') {
      const handleCode = options.status === 'success' ? 200 : 500;
      await this.store.complete(run.logId, { handleCode, handleMsg: '', handleTime: run.triggerTime + 1 });
    }
    return { run: await this.stored(run.logId), token };
  }

  /** Every page of `query`, following the cursors (at most `maxPages`). */
  async allPages(query: RunQuery, maxPages = 100) {
    const pages: Run[][] = [];
    let cursor: string | undefined;
    do {
      const page = await this.store.list({ ...query, cursor });
      pages.push(page.items);
      cursor = page.nextCursor;
    } while (cursor && pages.length < maxPages);
    return { pages, runs: pages.flat(), exhausted: cursor === undefined };
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
    it("hands out ids in the job's own unplanned range, ascending, starting at the range's first", async () => {
      const first = await store.allocateLogIds(300, 3);
      expect(first).toEqual([unplannedLogId(300, 0), unplannedLogId(300, 1), unplannedLogId(300, 2)]);
      const next = await store.allocateLogIds(300, 250);
      expect(next).toHaveLength(250);
      expect(next[0]).toBe(unplannedLogId(300, 3));
      expect(next).toEqual([...next].sort((a, b) => a - b));
      expect(new Set(next).size).toBe(250);
      for (const id of [...first, ...next]) {
        expect(jobIdOfLogId(id)).toBe(300);
        expect(id - firstPlannedLogId(300)).toBeGreaterThanOrEqual(UNPLANNED_LOG_ID_OFFSET);
      }
      expect(await store.allocateLogIds(300, 0)).toEqual([]);
    });

    it('gives two jobs disjoint ranges, each counting on its own', async () => {
      const a = await store.allocateLogIds(301, 5);
      const b = await store.allocateLogIds(302, 5);
      const a2 = await store.allocateLogIds(301, 1);
      expect(a.every((id) => jobIdOfLogId(id) === 301)).toBe(true);
      expect(b.every((id) => jobIdOfLogId(id) === 302)).toBe(true);
      expect(b[0]).toBe(unplannedLogId(302, 0)); // job 301's ids did not advance job 302's counter
      expect(a2).toEqual([unplannedLogId(301, 5)]);
      expect(new Set([...a, ...a2, ...b]).size).toBe(11);
      // The ranges never meet: job 301's last possible logId is below job 302's first planned one.
      expect(unplannedLogId(301, UNPLANNED_LOG_ID_OFFSET - 1)).toBeLessThan(firstPlannedLogId(302));
    });

    it('never gives concurrent callers the same id, within a process or across processes', async () => {
      const a = store;
      const b = Harness.storeOn(env);
      const calls = Array.from({ length: 60 }, (_, i) =>
        (i % 2 === 0 ? a : b).allocateLogIds(303 + (i % 3), 1 + (i % 4)),
      );
      const all = (await Promise.all(calls)).flat();
      expect(all).toHaveLength(60 * 2.5);
      expect(new Set(all).size).toBe(all.length);
      expect(all.every((id) => Number.isSafeInteger(id) && [303, 304, 305].includes(jobIdOfLogId(id)))).toBe(
        true,
      );
    });
  });

  describe('claim tokens and dispatch records', () => {
    it('makes tokens of the hour and the claim time, distinct for distinct salts', () => {
      const at = Date.UTC(2024, 4, 6, 7, 59, 59, 123);
      const token = Harness.storeOn(env, () => 0.5).newClaimToken(at);
      expect(token).toMatch(/^2024-05-06T07\/\d+$/);
      expect(Harness.storeOn(env, () => 0.25).newClaimToken(at)).not.toBe(token);
      expect(Harness.storeOn(env, () => 0.5).newClaimToken(at)).toBe(token);
      expect(Harness.storeOn(env, () => 0.5).newClaimToken(at + 1)).not.toBe(token);
    });

    it('tells which logIds were recorded under a token, appending when recorded twice', async () => {
      const token = store.newClaimToken(Date.now());
      expect(await store.dispatchedUnder(token)).toEqual(new Set());
      await store.recordDispatch(token, [
        { logId: unplannedLogId(310, 0), appName: 'rec-app', deadline: Date.now() + 60_000 },
        { logId: unplannedLogId(311, 0), appName: 'rec-app-2', deadline: 0 },
      ]);
      expect(await store.dispatchedUnder(token)).toEqual(
        new Set([unplannedLogId(310, 0), unplannedLogId(311, 0)]),
      );
      await store.recordDispatch(token, [{ logId: unplannedLogId(310, 1), appName: 'rec-app', deadline: 0 }]);
      expect(await store.dispatchedUnder(token)).toEqual(
        new Set([unplannedLogId(310, 0), unplannedLogId(311, 0), unplannedLogId(310, 1)]),
      );
    });

    it('keeps the records of tokens apart, and writes nothing for an empty record', async () => {
      const now = Date.now();
      const one = Harness.storeOn(env, () => 0.1).newClaimToken(now);
      const other = Harness.storeOn(env, () => 0.2).newClaimToken(now);
      await store.recordDispatch(one, [{ logId: unplannedLogId(312, 0), appName: 'x', deadline: 0 }]);
      await store.recordDispatch(other, []);
      expect(await store.dispatchedUnder(other)).toEqual(new Set());
      expect(await store.dispatchedUnder(one)).toEqual(new Set([unplannedLogId(312, 0)]));
    });

    it('rejects a claim token it did not make', async () => {
      await expect(store.dispatchedUnder('not-a-token')).rejects.toBeInstanceOf(ValidationError);
      await expect(
        store.recordDispatch('2024-05-06/123', [{ logId: 1, appName: 'x', deadline: 0 }]),
      ).rejects.toBeInstanceOf(ValidationError);
    });
  });

  describe('recording fires and claims', () => {
    it('records a fire with all its runs once; a duplicate writes nothing and gets the first logIds', async () => {
      const now = Date.now();
      const logIds = await store.allocateLogIds(320, 3);
      const shards = logIds.map((logId, i) =>
        sentRun(logId, {
          jobId: 320,
          appName: 'fire-app',
          triggerTime: now,
          dedupKey: `320#${now}`,
          shardIndex: i,
          shardTotal: 3,
        }),
      );
      const token = store.newClaimToken(now);
      expect(await store.createFire(`320#${now}`, shards, token)).toEqual({ created: true });
      const stored = await store.getMany(logIds);
      expect(stored.map((r) => r.logId).sort()).toEqual([...logIds].sort());
      for (const run of stored) {
        expect(run).toMatchObject({
          claimToken: token,
          claimAt: now,
          triggerCode: 200,
          executorAddress: EXECUTOR,
        });
      }

      const again = await store.allocateLogIds(320, 3);
      const duplicate = again.map((logId) =>
        sentRun(logId, { jobId: 320, appName: 'fire-app', triggerTime: now }),
      );
      expect(await store.createFire(`320#${now}`, duplicate, store.newClaimToken(now + 5))).toEqual({
        created: false,
        logIds,
      });
      expect(await store.getMany(again)).toEqual([]);
    });

    it('tells its own recorded fire (an attempt whose answer was lost) from another claim of the same logIds', async () => {
      // A trigger gives its runs' logIds out first: two dispatchers of one message write the same logIds.
      const now = Date.now();
      const logIds = await store.allocateLogIds(322, 2);
      const shards = logIds.map((logId, i) =>
        sentRun(logId, { jobId: 322, appName: 'fire-app', triggerTime: now, shardIndex: i, shardTotal: 2 }),
      );
      const ours = store.newClaimToken(now);
      expect(await store.createFire(`manual#322-${now}`, shards, ours)).toEqual({ created: true });
      expect(await store.createFire(`manual#322-${now}`, shards, ours)).toEqual({ created: true });
      expect(await store.createFire(`manual#322-${now}`, shards, store.newClaimToken(now + 1))).toEqual({
        created: false,
        logIds,
      });
      expect((await store.getMany(logIds)).map((r) => r.claimToken)).toEqual([ours, ours]);
    });

    it('does not record a fire whose run reuses an existing logId', async () => {
      const now = Date.now();
      const [logId = 0] = await store.allocateLogIds(321, 1);
      const token = store.newClaimToken(now);
      await store.createFire(
        '321#a',
        [sentRun(logId, { jobId: 321, appName: 'a', triggerTime: now })],
        token,
      );
      await expect(
        store.createFire(
          '321#b',
          [sentRun(logId, { jobId: 321, appName: 'a', triggerTime: now + 1 })],
          token,
        ),
      ).rejects.toThrow();
      // The second fire was not recorded either: a later attempt with fresh logIds can still claim it.
      const [fresh = 0] = await store.allocateLogIds(321, 1);
      expect(
        await store.createFire(
          '321#b',
          [sentRun(fresh, { jobId: 321, appName: 'a', triggerTime: now })],
          token,
        ),
      ).toEqual({ created: true });
      expect(await store.get(logId)).toMatchObject({ triggerTime: now });
    });

    it('claims a planned run once; the same token again counts as created, another token gets the logId', async () => {
      const now = Date.now();
      const run = sentRun(firstPlannedLogId(322) + 7, { jobId: 322, appName: 'a', triggerTime: now });
      const token = store.newClaimToken(now);
      expect(await store.claim(run, token)).toEqual({ created: true });
      expect(await store.claim(run, token)).toEqual({ created: true });
      const other = { ...run, triggerTime: now + 1, executorAddress: 'http://10.0.0.9:9999/' };
      expect(await store.claim(other, store.newClaimToken(now + 1))).toEqual({
        created: false,
        logIds: [run.logId],
      });
      const [stored] = await store.getMany([run.logId]);
      expect(stored).toEqual({ ...run, claimToken: token, claimAt: now });
    });

    it('reads runs by logId, with their claim; unknown and malformed logIds are absent', async () => {
      const now = Date.now();
      const { run, token } = await h.seedRun({ jobId: 323, appName: 'a', triggerTime: now });
      expect(await store.get(run.logId)).toEqual(run);
      expect(await store.get(run.logId + 1)).toBeUndefined();
      for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 53]) expect(await store.get(bad)).toBeUndefined();
      const many = await store.getMany([run.logId, run.logId, run.logId + 1, -3]);
      expect(many).toEqual([{ ...run, claimToken: token, claimAt: now }]);
      expect(await store.getMany([])).toEqual([]);
    });
  });

  describe('reclaim', () => {
    const refusal = (dispatchedAt: number) => ({
      executorAddress: EXECUTOR,
      triggerCode: 500,
      triggerMsg: 'refused',
      dispatchedAt,
    });

    it('takes over a stale claim under a new token, setting the claim time', async () => {
      const t = Date.now() - 10 * MINUTE_MS;
      const { run, token } = await h.seedRun({ jobId: 330, appName: 'a', triggerTime: t }, { record: false });
      const next = store.newClaimToken(t + 5 * MINUTE_MS);
      expect(
        await store.reclaim(run.logId, {
          previousToken: token,
          claimToken: next,
          nowMs: t + 5 * MINUTE_MS,
          staleBeforeMs: t + 1,
        }),
      ).toBe(true);
      expect(await store.getMany([run.logId])).toEqual([
        { ...run, claimToken: next, claimAt: t + 5 * MINUTE_MS },
      ]);
    });

    it('refuses a claim that is not stale yet, or held under another token', async () => {
      const t = Date.now() - 10 * MINUTE_MS;
      const { run, token } = await h.seedRun({ jobId: 331, appName: 'a', triggerTime: t }, { record: false });
      const next = store.newClaimToken(t + MINUTE_MS);
      const claim = { previousToken: token, claimToken: next, nowMs: t + MINUTE_MS };
      expect(await store.reclaim(run.logId, { ...claim, staleBeforeMs: t })).toBe(false);
      expect(await store.reclaim(run.logId, { ...claim, previousToken: next, staleBeforeMs: t + 1 })).toBe(
        false,
      );
      expect((await store.getMany([run.logId]))[0]).toMatchObject({ claimToken: token, claimAt: t });

      // Once taken over, the old token cannot take it again, and the new claim is fresh.
      expect(await store.reclaim(run.logId, { ...claim, staleBeforeMs: t + 1 })).toBe(true);
      const third = store.newClaimToken(t + 2 * MINUTE_MS);
      const again = { claimToken: third, nowMs: t + 2 * MINUTE_MS, staleBeforeMs: t + 1 };
      expect(await store.reclaim(run.logId, { ...again, previousToken: token })).toBe(false);
      expect(await store.reclaim(run.logId, { ...again, previousToken: next })).toBe(false);
      expect(
        await store.reclaim(run.logId, { ...again, previousToken: next, staleBeforeMs: t + MINUTE_MS + 1 }),
      ).toBe(true);
      expect((await store.getMany([run.logId]))[0]).toMatchObject({ claimToken: third });
    });

    it('refuses a run that was refused, has its result, or does not exist', async () => {
      const t = Date.now() - 10 * MINUTE_MS;
      const claim = (previousToken: string) => ({
        previousToken,
        claimToken: store.newClaimToken(t + MINUTE_MS),
        nowMs: t + MINUTE_MS,
        staleBeforeMs: t + 1,
      });
      const refused = await h.seedRun({ jobId: 332, appName: 'a', triggerTime: t });
      expect(await store.recordRefusal(refused.run.logId, refused.token, refusal(t))).toBe(true);
      expect(await store.reclaim(refused.run.logId, claim(refused.token))).toBe(false);

      const [noExecutor = 0] = await store.allocateLogIds(332, 1);
      const unrouted = sentRun(noExecutor, {
        jobId: 332,
        appName: 'a',
        triggerTime: t,
        executorAddress: '',
        triggerCode: 500,
      });
      const unroutedToken = store.newClaimToken(t);
      await store.createFire(unrouted.dedupKey, [unrouted], unroutedToken);
      expect(await store.reclaim(noExecutor, claim(unroutedToken))).toBe(false);

      for (const status of ['success', 'fail'] as const) {
        const done = await h.seedRun({ jobId: 332, appName: 'a', triggerTime: t }, { status });
        expect(await store.reclaim(done.run.logId, claim(done.token))).toBe(false);
        expect((await store.getMany([done.run.logId]))[0]?.claimToken).toBe(done.token);
      }

      const unknown = unplannedLogId(332, 999_999);
      expect(await store.reclaim(unknown, claim('2024-01-01T00/1'))).toBe(false);
      expect(await h.rawItem(unknown)).toBeUndefined();
    });
  });

  describe('recordRefusal', () => {
    it('rewrites a sent run as refused under its own claim token only', async () => {
      const t = Date.now();
      const { run, token } = await h.seedRun({ jobId: 340, appName: 'a', triggerTime: t });
      const refusal = {
        executorAddress: 'http://10.0.0.7:9999/',
        triggerCode: 500,
        triggerMsg: 'executor busy',
        dispatchedAt: t + 20,
      };
      expect(await store.recordRefusal(run.logId, store.newClaimToken(t + 1), refusal)).toBe(false);
      expect(await store.get(run.logId)).toEqual(run);

      expect(await store.recordRefusal(run.logId, token, refusal)).toBe(true);
      const refused = await h.stored(run.logId);
      expect(refused).toEqual({ ...run, ...refusal });
      expect(runStatus(refused)).toBe('fail');
      // A refused run is finished: a second refusal and a reclaim leave it alone.
      expect(await store.recordRefusal(run.logId, token, { ...refusal, triggerMsg: 'again' })).toBe(false);
      expect((await h.stored(run.logId)).triggerMsg).toBe('executor busy');
    });

    it('leaves a run that has its result, and one never recorded, alone', async () => {
      const t = Date.now();
      const { run, token } = await h.seedRun(
        { jobId: 341, appName: 'a', triggerTime: t },
        { status: 'success' },
      );
      const refusal = {
        executorAddress: EXECUTOR,
        triggerCode: 500,
        triggerMsg: 'late refusal',
        dispatchedAt: t,
      };
      expect(await store.recordRefusal(run.logId, token, refusal)).toBe(false);
      expect(await store.get(run.logId)).toEqual(run);
      const unknown = unplannedLogId(341, 999_999);
      expect(await store.recordRefusal(unknown, token, refusal)).toBe(false);
      expect(await h.rawItem(unknown)).toBeUndefined();
    });

    it('follows a takeover: the new claim token records the refusal, the old one no longer can', async () => {
      const t = Date.now() - 10 * MINUTE_MS;
      const { run, token } = await h.seedRun({ jobId: 342, appName: 'a', triggerTime: t }, { record: false });
      const next = store.newClaimToken(t + MINUTE_MS);
      expect(
        await store.reclaim(run.logId, {
          previousToken: token,
          claimToken: next,
          nowMs: t + MINUTE_MS,
          staleBeforeMs: t + 1,
        }),
      ).toBe(true);
      const refusal = {
        executorAddress: EXECUTOR,
        triggerCode: 500,
        triggerMsg: 'no',
        dispatchedAt: t + MINUTE_MS,
      };
      expect(await store.recordRefusal(run.logId, token, refusal)).toBe(false);
      expect(await store.recordRefusal(run.logId, next, refusal)).toBe(true);
    });

    it('keeps at most the admin limit of the trigger message', async () => {
      const t = Date.now();
      const { run, token } = await h.seedRun({ jobId: 343, appName: 'a', triggerTime: t });
      const long = 'x'.repeat(MAX_HANDLE_MSG + 500);
      await store.recordRefusal(run.logId, token, {
        executorAddress: EXECUTOR,
        triggerCode: 500,
        triggerMsg: long,
        dispatchedAt: t,
      });
      expect((await h.stored(run.logId)).triggerMsg).toBe(`${'x'.repeat(MAX_HANDLE_MSG)}...`);
    });
  });

  describe('complete', () => {
    it('stores the first result only; a later one gets the run as finished; an unknown run is unknown', async () => {
      const t = Date.now();
      const { run } = await h.seedRun({ jobId: 350, appName: 'a', triggerTime: t });
      const first = await store.complete(run.logId, { handleCode: 200, handleMsg: 'ok', handleTime: t + 5 });
      const done = { ...run, handleCode: 200, handleMsg: 'ok', handleTime: t + 5 };
      expect(first).toEqual({ kind: 'completed', run: done });
      expect(
        await store.complete(run.logId, { handleCode: 500, handleMsg: 'late', handleTime: t + 9 }),
      ).toEqual({
        kind: 'already-finished',
        run: done,
      });
      expect(await store.get(run.logId)).toEqual(done);
      const unknown = unplannedLogId(350, 999_999);
      expect(await store.complete(unknown, { handleCode: 200, handleMsg: '', handleTime: t })).toEqual({
        kind: 'unknown',
      });
      expect(await h.rawItem(unknown)).toBeUndefined();
    });

    it('leaves a run recorded as skipped as it is: the skip was its end', async () => {
      const t = Date.now();
      const { run } = await h.seedRun({
        jobId: 351,
        appName: 'a',
        triggerTime: t,
        triggerCode: TRIGGER_CODE.skipped,
        executorAddress: '',
        dispatchedAt: 0,
      });
      const answer = await store.complete(run.logId, {
        handleCode: 200,
        handleMsg: 'ran',
        handleTime: t + 5,
      });
      expect(answer).toEqual({ kind: 'already-finished', run });
      expect(await store.get(run.logId)).toEqual(run);
      expect((await h.rawItem(run.logId))?.outcomeBucket).toBeUndefined();
    });

    it('sets the alarm status of a run, and creates nothing for an unknown one', async () => {
      const { run } = await h.seedRun(
        { jobId: 351, appName: 'a', triggerTime: Date.now() },
        { status: 'fail' },
      );
      await store.setAlarmStatus(run.logId, 2);
      expect(await store.get(run.logId)).toEqual({ ...run, alarmStatus: 2 });
      const unknown = unplannedLogId(351, 999_999);
      await store.setAlarmStatus(unknown, 2);
      expect(await h.rawItem(unknown)).toBeUndefined();
    });
  });

  describe("list by job (the job's partition)", () => {
    const base = Date.now() - 3 * DAY_MS;
    /** Job 400's runs: planned ones (even minutes) and unplanned ones (odd minutes), interleaved in time. */
    let jobRuns: Run[];
    /** Job 401's runs, with a same-time run of job 400's app: never listed with job 400. */
    let otherJob: Run[];

    beforeAll(async () => {
      jobRuns = [];
      const statuses: RunStatus[] = ['success', 'fail', 'running'];
      for (let k = 0; k < 8; k++) {
        const at = base + 2 * k * MINUTE_MS;
        const status = statuses[k % 3];
        jobRuns.push(
          (await h.seedPlanned(k, { jobId: 400, appName: 'job-app', triggerTime: at }, { status })).run,
        );
      }
      for (let k = 0; k < 7; k++) {
        const at = base + (2 * k + 1) * MINUTE_MS;
        const status = statuses[(k + 1) % 3];
        jobRuns.push((await h.seedRun({ jobId: 400, appName: 'job-app', triggerTime: at }, { status })).run);
      }
      otherJob = [
        (await h.seedPlanned(0, { jobId: 401, appName: 'job-app', triggerTime: base + 30_000 })).run,
        (await h.seedRun({ jobId: 401, appName: 'job-app', triggerTime: base + 90_000 })).run,
      ];
    });

    it("pages a job's planned and unplanned runs merged newest first, every run once, none skipped", async () => {
      const { pages, runs, exhausted } = await h.allPages({ jobId: 400, limit: 4 });
      expect(ids(runs)).toEqual(ids(newestFirst(jobRuns)));
      expect(pages.slice(0, 4).map((p) => p.length)).toEqual([4, 4, 4, 3]);
      expect(exhausted).toBe(true);
      // The runs as stored: no key or claim attributes.
      expect(runs[0]).toEqual(newestFirst(jobRuns)[0]);
      expect(runs[0]).not.toHaveProperty('claimToken');
      expect(runs[0]).not.toHaveProperty('pk');
      for (const other of otherJob) expect(ids(runs)).not.toContain(other.logId);
    });

    it('resumes exactly after the last run of any page size, one run at a time too', async () => {
      const expected = ids(newestFirst(jobRuns));
      for (const limit of [1, 2, 3, 7, 15, 100]) {
        const { runs, exhausted } = await h.allPages({ jobId: 400, limit });
        expect(ids(runs), `limit ${limit}`).toEqual(expected);
        expect(exhausted).toBe(true);
      }
    });

    it('answers one page when everything fits, without a cursor', async () => {
      const page = await store.list({ jobId: 401, limit: 10 });
      expect(ids(page.items)).toEqual(ids(newestFirst(otherJob)));
      expect(page.nextCursor).toBeUndefined();
      expect(await store.list({ jobId: 409, limit: 10 })).toEqual({ items: [] });
    });

    it('filters by status on the stored runs, across pages, without skipping or repeating', async () => {
      for (const status of ['success', 'fail', 'running'] as const) {
        const { runs, exhausted } = await h.allPages({ jobId: 400, status, limit: 2 });
        const expected = newestFirst(jobRuns).filter((r) => runStatus(r) === status);
        expect(expected.length).toBeGreaterThan(0);
        expect(ids(runs), status).toEqual(ids(expected));
        expect(exhausted).toBe(true);
      }
    });

    it('keeps to the trigger time range, both ends inclusive', async () => {
      const from = base + 3 * MINUTE_MS;
      const to = base + 9 * MINUTE_MS;
      const { runs } = await h.allPages({ jobId: 400, from, to, limit: 2 });
      const expected = newestFirst(jobRuns).filter((r) => r.triggerTime >= from && r.triggerTime <= to);
      expect(expected).toHaveLength(7);
      expect(ids(runs)).toEqual(ids(expected));
      const running = await h.allPages({ jobId: 400, from, to, status: 'running', limit: 1 });
      expect(ids(running.runs)).toEqual(ids(expected.filter((r) => runStatus(r) === 'running')));
    });

    it('sees a status change at once (the filter reads the table)', async () => {
      const { run } = await h.seedRun({ jobId: 402, appName: 'job-app-2', triggerTime: base });
      expect(ids((await store.list({ jobId: 402, status: 'running', limit: 10 })).items)).toEqual([
        run.logId,
      ]);
      await store.complete(run.logId, { handleCode: 200, handleMsg: '', handleTime: base });
      expect((await store.list({ jobId: 402, status: 'running', limit: 10 })).items).toEqual([]);
      expect(ids((await store.list({ jobId: 402, status: 'success', limit: 10 })).items)).toEqual([
        run.logId,
      ]);
    });

    it('pages through more runs than one read of the partition holds', async () => {
      const start = base + HOUR_MS;
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
      const { runs: listed, exhausted } = await h.allPages({ jobId: 403, limit: 25 });
      expectNoDuplicates(ids(listed));
      expect(ids(listed)).toEqual(ids(newestFirst(runs)));
      expect(exhausted).toBe(true);
    });

    it('rejects a cursor it did not make and an inverted time range', async () => {
      await expect(store.list({ jobId: 400, limit: 5, cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(
        ValidationError,
      );
      const forged = Buffer.from(JSON.stringify({ p: 'x' })).toString('base64url');
      await expect(store.list({ jobId: 400, limit: 5, cursor: forged })).rejects.toBeInstanceOf(
        ValidationError,
      );
      await expect(store.list({ jobId: 400, limit: 5, from: base + 1, to: base })).rejects.toBeInstanceOf(
        ValidationError,
      );
    });
  });

  describe('list by app and all runs (the dispatch records)', () => {
    /** A quiet hour of its own, a day back: no other test records there. */
    const hour = hourStartOf(Date.now() - DAY_MS);
    const window = { from: hour, to: hour + 4 * HOUR_MS };
    /** App X's runs as listed: newest record first, newest entry of a record first. */
    let appX: Run[];
    /** Every run listed, any app. */
    let all: Run[];
    let unrecorded: Run;
    let reclaimedTwice: Run;

    /** Records the given runs (already stored under `token`) as sent, in one record. */
    const record = (token: string, runs: readonly Run[]) =>
      store.recordDispatch(
        token,
        runs.map((r) => ({ logId: r.logId, appName: r.appName, deadline: r.triggerTime + 600_000 })),
      );

    beforeAll(async () => {
      const x = { appName: 'pages-x' };
      const y = { appName: 'pages-y' };
      // Record A, hour 0: two runs of app X (two jobs) and one of app Y.
      const tA = hour + 10 * MINUTE_MS;
      const tokenA = store.newClaimToken(tA);
      const a1 = (
        await h.seedRun({ ...x, jobId: 500, triggerTime: tA + 1 }, { token: tokenA, record: false })
      ).run;
      const a2 = (
        await h.seedRun({ ...y, jobId: 510, triggerTime: tA + 2 }, { token: tokenA, record: false })
      ).run;
      const a3 = (
        await h.seedRun({ ...x, jobId: 501, triggerTime: tA + 3 }, { token: tokenA, record: false })
      ).run;
      await record(tokenA, [a1, a2, a3]);

      // Record B, hour 1: three runs of app X, one a planned run (claimed with one put), one failed.
      const tB = hour + 70 * MINUTE_MS;
      const tokenB = store.newClaimToken(tB);
      const b1 = (
        await h.seedPlanned(0, { ...x, jobId: 500, triggerTime: tB + 1 }, { token: tokenB, record: false })
      ).run;
      const b2 = (
        await h.seedRun(
          { ...x, jobId: 501, triggerTime: tB + 2 },
          { token: tokenB, record: false, status: 'fail' },
        )
      ).run;
      const b3 = (
        await h.seedRun({ ...x, jobId: 500, triggerTime: tB + 3 }, { token: tokenB, record: false })
      ).run;
      await record(tokenB, [b1, b2, b3]);

      // Record C, hour 2: one run recorded as sent (and succeeded); one claimed under C but never
      // recorded (its dispatcher died before recording): only its job lists it.
      const tC = hour + 130 * MINUTE_MS;
      const tokenC = store.newClaimToken(tC);
      const c1 = (
        await h.seedRun({ ...x, jobId: 502, triggerTime: tC + 1 }, { token: tokenC, status: 'success' })
      ).run;
      unrecorded = (
        await h.seedRun({ ...x, jobId: 502, triggerTime: tC + 2 }, { token: tokenC, record: false })
      ).run;

      // Two runs claimed under D (hour 0) and taken over under E (hour 2): one never recorded under
      // D, one recorded under D too (a slow dispatcher's record, written after the takeover).
      const tD = hour + 20 * MINUTE_MS;
      const tokenD = store.newClaimToken(tD);
      const d1 = (
        await h.seedRun({ ...x, jobId: 503, triggerTime: tD + 1 }, { token: tokenD, record: false })
      ).run;
      const d2 = (
        await h.seedRun({ ...x, jobId: 503, triggerTime: tD + 2 }, { token: tokenD, record: false })
      ).run;
      const tE = hour + 150 * MINUTE_MS;
      const tokenE = store.newClaimToken(tE);
      for (const run of [d1, d2]) {
        expect(
          await store.reclaim(run.logId, {
            previousToken: tokenD,
            claimToken: tokenE,
            nowMs: tE,
            staleBeforeMs: tE,
          }),
        ).toBe(true);
      }
      await record(tokenE, [d1, d2]);
      await record(tokenD, [d2]);
      reclaimedTwice = d2;

      // Hour 3 is empty; the window ends in hour 4.
      appX = [d2, d1, c1, b3, b2, b1, a3, a1];
      all = [d2, d1, c1, b3, b2, b1, a3, a2, a1];
    });

    it("lists an app's runs from the dispatch records, newest record first, each run once", async () => {
      const { runs, exhausted } = await h.allPages({ appName: 'pages-x', ...window, limit: 50 });
      expect(ids(runs)).toEqual(ids(appX));
      expect(exhausted).toBe(true);
      expect(runs[2]).toEqual(appX[2]);
      expect(runs[2]).not.toHaveProperty('claimToken');
    });

    it('lists a run taken over under another token once, from the record of the token it is stored with', async () => {
      const { runs } = await h.allPages({ appName: 'pages-x', ...window, limit: 50 });
      expect(ids(runs).filter((id) => id === reclaimedTwice.logId)).toHaveLength(1);
      expect(ids(runs).indexOf(reclaimedTwice.logId)).toBe(0);
    });

    it('leaves out a run never recorded as sent; its job still lists it', async () => {
      const { runs } = await h.allPages({ ...window, limit: 50 });
      expect(ids(runs)).not.toContain(unrecorded.logId);
      expect(ids((await store.list({ jobId: unrecorded.jobId, limit: 10 })).items)).toContain(
        unrecorded.logId,
      );
    });

    it('resumes after the last run of any page size, within a record and across records and hours', async () => {
      for (const limit of [1, 2, 3, 4]) {
        const { runs, exhausted, pages } = await h.allPages({ appName: 'pages-x', ...window, limit });
        expect(ids(runs), `limit ${limit}`).toEqual(ids(appX));
        expect(exhausted).toBe(true);
        expect(pages.every((p) => p.length <= limit)).toBe(true);
      }
    });

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

    it('lists all apps without an app, filtered by status too', async () => {
      const { runs, exhausted } = await h.allPages({ ...window, limit: 2 });
      expect(ids(runs)).toEqual(ids(all));
      expect(exhausted).toBe(true);
      for (const status of ['success', 'fail', 'running'] as const) {
        const filtered = await h.allPages({ ...window, status, limit: 1 });
        const expected = all.filter((r) => runStatus(r) === status);
        expect(expected.length).toBeGreaterThan(0);
        expect(ids(filtered.runs), status).toEqual(ids(expected));
        const app = await h.allPages({ appName: 'pages-x', ...window, status, limit: 2 });
        expect(ids(app.runs), status).toEqual(ids(appX.filter((r) => runStatus(r) === status)));
      }
    });

    it('keeps to the trigger time range', async () => {
      const from = hour + 70 * MINUTE_MS + 2;
      const to = hour + 130 * MINUTE_MS + 1;
      const { runs } = await h.allPages({ appName: 'pages-x', from, to, limit: 2 });
      const expected = appX.filter((r) => r.triggerTime >= from && r.triggerTime <= to);
      expect(ids(expected)).toHaveLength(3);
      expect(ids(runs)).toEqual(ids(expected));
      expect((await h.allPages({ appName: 'pages-y', from, to, limit: 2 })).runs).toEqual([]);
    });

    it('finds recent runs without a time range, following its cursors', async () => {
      const now = Date.now();
      const { run } = await h.seedRun({ jobId: 520, appName: 'pages-recent', triggerTime: now });
      const { runs, exhausted } = await h.allPages({ appName: 'pages-recent', limit: 10 }, 1000);
      expect(ids(runs)).toEqual([run.logId]);
      expect(exhausted).toBe(true);
    });

    it('rejects a cursor it did not make', async () => {
      await expect(
        store.list({ appName: 'pages-x', ...window, limit: 5, cursor: 'garbage' }),
      ).rejects.toBeInstanceOf(ValidationError);
      const jobCursor = (await store.list({ jobId: 400, limit: 1 })).nextCursor;
      expect(jobCursor).toBeDefined();
      await expect(store.list({ ...window, limit: 5, cursor: jobCursor })).rejects.toBeInstanceOf(
        ValidationError,
      );
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
  /** The first sweep that reads a record claimed at `t0`. */
  const settled = t0 + SETTLE_MS;
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

  it('returns a sent run past its deadline once its record has settled, as stored', async () => {
    const token = store.newClaimToken(t0);
    const { run } = await h.seedRun(
      { jobId: 600, appName: 'watch', triggerTime: t0 },
      { token, deadline: t0 + MINUTE_MS },
    );
    // Past its deadline, but the record is not read until the dispatcher surely wrote it.
    expect(await sweep(settled - 1_000)).toEqual([]);
    expect(await findOverdue(settled + 1_000, 100)).toEqual([run]);
  });

  it('drops a run that has its result, and a refused one, and never returns them', async () => {
    const token = store.newClaimToken(t0);
    const seed = (deadline: number) =>
      h.seedRun({ jobId: 601, appName: 'watch', triggerTime: t0 }, { token, record: false, deadline });
    const finished = (await seed(t0 + MINUTE_MS)).run;
    const finishedLater = (await seed(t0 + 10 * MINUTE_MS)).run;
    const refused = (await seed(0)).run;
    const late = (await seed(t0 + MINUTE_MS)).run;
    await store.recordDispatch(token, [
      { logId: finished.logId, appName: 'watch', deadline: t0 + MINUTE_MS },
      { logId: finishedLater.logId, appName: 'watch', deadline: t0 + 10 * MINUTE_MS },
      { logId: refused.logId, appName: 'watch', deadline: 0 },
      { logId: late.logId, appName: 'watch', deadline: t0 + MINUTE_MS },
    ]);
    await store.complete(finished.logId, { handleCode: 200, handleMsg: '', handleTime: t0 + 1_000 });
    expect(
      await store.recordRefusal(refused.logId, token, {
        executorAddress: EXECUTOR,
        triggerCode: 500,
        triggerMsg: 'refused',
        dispatchedAt: t0,
      }),
    ).toBe(true);

    expect(await sweep(settled)).toEqual([late.logId]);
    // Finished before its deadline: not returned then, nor ever after.
    await store.complete(finishedLater.logId, {
      handleCode: 500,
      handleMsg: 'x',
      handleTime: t0 + MINUTE_MS,
    });
    await store.complete(late.logId, { handleCode: 500, handleMsg: 'lost', handleTime: settled });
    for (let at = settled + MINUTE_MS; at <= t0 + 15 * MINUTE_MS; at += MINUTE_MS) {
      expect(await sweep(at), `sweep at t0 + ${(at - t0) / MINUTE_MS} min`).toEqual([]);
    }
  });

  it('does not return a run before its deadline, and returns it once the deadline has come', async () => {
    const deadline = t0 + 8 * MINUTE_MS; // a whole minute
    const { run } = await h.seedRun(
      { jobId: 602, appName: 'watch', triggerTime: t0 },
      { token: store.newClaimToken(t0), deadline },
    );
    expect(await sweep(settled)).toEqual([]);
    expect(await sweep(deadline - 60_000)).toEqual([]);
    expect(await sweep(deadline - 1)).toEqual([]);
    expect(await sweep(deadline)).toEqual([run.logId]);
  });

  it('returns a run past a deadline that is not a whole minute within the minute after it', async () => {
    const deadline = t0 + 8 * MINUTE_MS + 12_345;
    const { run } = await h.seedRun(
      { jobId: 603, appName: 'watch', triggerTime: t0 },
      { token: store.newClaimToken(t0), deadline },
    );
    expect(await sweep(settled)).toEqual([]);
    expect(await sweep(deadline - 1)).toEqual([]);
    const found: number[] = [];
    for (let at = deadline; at <= deadline + MINUTE_MS && found.length === 0; at += 10_000) {
      found.push(...(await sweep(at)));
    }
    expect(found).toEqual([run.logId]);
  });

  it('returns a run still within its deadline once its record has settled, and every minute after, so a gone executor is noticed early', async () => {
    const deadline = t0 + 10 * MINUTE_MS; // a job without a timeout
    const { run } = await h.seedRun(
      { jobId: 607, appName: 'watch', triggerTime: t0 },
      { token: store.newClaimToken(t0), deadline },
    );
    const watched = (nowMs: number) => store.findUnfinished(nowMs, { limit: 100, settleMs: SETTLE_MS });
    expect(await watched(settled - 1_000)).toEqual([]);
    const first = Math.ceil(settled / MINUTE_MS) * MINUTE_MS;
    expect(await watched(first)).toEqual([{ run, pastDeadline: false }]);
    expect(await watched(first + 30_000)).toEqual([]);
    expect(await watched(first + WATCH_AGAIN_MS)).toEqual([{ run, pastDeadline: false }]);
    // Looked at every minute until its deadline, then as an overdue run.
    const seen: boolean[] = [];
    for (let at = first + 2 * WATCH_AGAIN_MS; at <= deadline; at += WATCH_AGAIN_MS) {
      seen.push(...(await watched(at)).map((w) => w.pastDeadline));
    }
    expect(seen.at(-1)).toBe(true);
    expect(seen.slice(0, -1).every((past) => !past)).toBe(true);
  });

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

  it('returns a run once per sweep even when records list it more than once', async () => {
    const t = t0 - 10 * MINUTE_MS;
    const tokenA = store.newClaimToken(t);
    const { run } = await h.seedRun(
      { jobId: 605, appName: 'watch', triggerTime: t },
      { token: tokenA, record: false },
    );
    const tokenB = store.newClaimToken(t0);
    expect(
      await store.reclaim(run.logId, {
        previousToken: tokenA,
        claimToken: tokenB,
        nowMs: t0,
        staleBeforeMs: t0,
      }),
    ).toBe(true);
    const entry = { logId: run.logId, appName: 'watch', deadline: t0 + MINUTE_MS };
    await store.recordDispatch(tokenA, [entry]); // the old dispatcher's late record
    await store.recordDispatch(tokenB, [entry]);
    await store.recordDispatch(tokenB, [entry]); // the same record written twice
    const first = t0 + 4 * MINUTE_MS;
    expect(await sweep(first)).toEqual([run.logId]);
    expect(await sweep(first + WATCH_AGAIN_MS)).toEqual([run.logId]);
    expect(await sweep(first + 2 * WATCH_AGAIN_MS)).toEqual([run.logId]);
  });

  it("watches a run taken over under another token from that claim's record, not the old one", async () => {
    const t = t0 - 10 * MINUTE_MS;
    const tokenA = store.newClaimToken(t);
    const { run } = await h.seedRun(
      { jobId: 606, appName: 'watch', triggerTime: t },
      { token: tokenA, record: false },
    );
    const tokenB = store.newClaimToken(t0 + 2 * MINUTE_MS);
    expect(
      await store.reclaim(run.logId, {
        previousToken: tokenA,
        claimToken: tokenB,
        nowMs: t0 + 2 * MINUTE_MS,
        staleBeforeMs: t0,
      }),
    ).toBe(true);
    await store.recordDispatch(tokenA, [{ logId: run.logId, appName: 'watch', deadline: t + MINUTE_MS }]);
    // Record A is old enough to read, and its deadline has passed, but the run is no longer A's
    // (and record B is not settled yet: its dispatcher may still be writing it).
    expect(await sweep(t0 + 2 * MINUTE_MS + SETTLE_MS - 1_000)).toEqual([]);
    await store.recordDispatch(tokenB, [
      { logId: run.logId, appName: 'watch', deadline: t0 + 3 * MINUTE_MS },
    ]);
    expect(await sweep(t0 + 6 * MINUTE_MS)).toEqual([run.logId]);
  });

  it('reads a backlog of many records in one sweep when few of their runs are overdue', async () => {
    // Ten records of finished runs, more than a sweep's limit, then one overdue run behind them.
    for (let record = 0; record < 10; record++) {
      const at = t0 + record * 1_000;
      const token = store.newClaimToken(at);
      for (let i = 0; i < 3; i++) {
        await h.seedRun(
          { jobId: 608, appName: 'watch', triggerTime: at },
          { token, status: 'success', deadline: t0 + MINUTE_MS },
        );
      }
    }
    const { run: late } = await h.seedRun(
      { jobId: 608, appName: 'watch', triggerTime: t0 + 20_000 },
      { deadline: t0 + MINUTE_MS },
    );
    expect(await sweep(t0 + 5 * MINUTE_MS, 4)).toEqual([late.logId]);
  });

  it("leaves what is over a sweep's limit to the next sweep: every overdue run once, none lost", async () => {
    const runs: Run[] = [];
    for (let record = 0; record < 4; record++) {
      const at = t0 + record * 1_000;
      const token = store.newClaimToken(at);
      const three: Run[] = [];
      for (let i = 0; i < 3; i++) {
        three.push(
          (await h.seedRun({ jobId: 607, appName: 'watch', triggerTime: at }, { token, record: false })).run,
        );
      }
      await store.recordDispatch(
        token,
        three.map((r) => ({ logId: r.logId, appName: 'watch', deadline: t0 + MINUTE_MS })),
      );
      runs.push(...three);
    }
    // Sweeps a second apart: the runs returned are not due again (a minute later) meanwhile.
    const now = t0 + 5 * MINUTE_MS;
    const sweeps = [await sweep(now, 5)];
    expect(sweeps[0]?.length).toBeGreaterThanOrEqual(5);
    expect(sweeps[0]?.length).toBeLessThan(runs.length);
    while ((sweeps.at(-1)?.length ?? 0) > 0 && sweeps.length < 10) {
      sweeps.push(await sweep(now + sweeps.length * 1_000, 5));
    }
    const found = sweeps.flat();
    expectNoDuplicates(found);
    expect([...found].sort()).toEqual(ids(runs).sort());
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
