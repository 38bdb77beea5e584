import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapacityRecorder, recordConsumedCapacity } from '../../../test/consumed-capacity.js';
import { makeRun } from '../../../test/outcome-fakes.js';
import { isolatedResources, type TestResources } from '../../../test/stand-ins.js';
import type { Run, RunStatus } from '../../domain/run.js';
import type { RunQuery } from '../../ports/run-store.js';
import { DynamoRunStore } from './run-store.js';

const DAY_MS = 86_400_000;
const LIST_INDEXES = ['byJob', 'byApp', 'byDay'];

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

describe('DynamoRunStore (DynamoDB Local)', () => {
  let env: TestResources;
  let store: DynamoRunStore;
  let capacity: CapacityRecorder;

  beforeAll(async () => {
    env = await isolatedResources('runs');
    capacity = recordConsumedCapacity(env.clients.doc);
    store = newStore();
  });
  afterAll(() => env?.close());

  function newStore(logIdBlockSize?: number): DynamoRunStore {
    return new DynamoRunStore({
      doc: env.clients.doc,
      runsTable: env.resources.tables.runs,
      controlTable: env.resources.tables.control,
      retentionDays: 30,
      logIdBlockSize,
    });
  }

  async function rawItem(logId: number) {
    const { Item } = await env.clients.doc.send(
      new GetCommand({ TableName: env.resources.tables.runs, Key: { logId }, ConsistentRead: true }),
    );
    return Item;
  }

  /** Records a run (not yet triggered) of `jobId` at `triggerTime`; with `status`, brings it there. */
  async function seedRun(
    fields: Partial<Run> & Pick<Run, 'jobId' | 'appName' | 'triggerTime'>,
    status?: RunStatus,
  ): Promise<Run> {
    const [logId = 0] = await store.allocateLogIds(1);
    const run = makeRun({
      logId,
      scheduledTime: fields.triggerTime,
      triggerCode: 0,
      dispatchedAt: 0,
      ...fields,
    });
    await store.createFire(`test#${logId}`, [run]);
    if (status === undefined) return run;
    const at = fields.triggerTime;
    await store.recordTrigger(logId, {
      executorAddress: 'http://127.0.0.1:9999/',
      triggerCode: 200,
      triggerMsg: 'ok',
      dispatchedAt: at,
      deadline: at + 600_000,
    });
    if (status !== 'running') {
      await store.complete(logId, {
        handleCode: status === 'success' ? 200 : 500,
        handleMsg: '',
        handleTime: at,
      });
    }
    return (await store.get(logId)) as Run;
  }

  /** Every page of `query`, following the cursors (at most `maxPages`). */
  async function allPages(query: RunQuery, maxPages = 50) {
    const pages: Run[][] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list({ ...query, cursor });
      pages.push(page.items);
      cursor = page.nextCursor;
    } while (cursor && pages.length < maxPages);
    return { pages, runs: pages.flat(), exhausted: cursor === undefined };
  }

  describe('write costs (ReturnConsumedCapacity from DynamoDB Local)', () => {
    it('keeps updates off the list indexes: trigger, result and clear each write the run and one sparse index', async () => {
      const now = Date.now();
      const [logId = 0] = await store.allocateLogIds(1);
      const run = makeRun({
        logId,
        jobId: 12,
        appName: 'xxl-job-executor-sample',
        jobName: 'demo job: sync orders',
        dedupKey: `12#${now}`,
        triggerType: 'CRON',
        triggerTime: now,
        scheduledTime: now,
        executorAddress: '',
        triggerCode: 0,
        dispatchedAt: 0,
      });
      const cost = async (write: () => Promise<unknown>) => {
        const since = capacity.records.length;
        await write();
        const [record, ...more] = capacity.slice(since);
        expect(more).toEqual([]);
        return record;
      };

      const created = await cost(() => store.createFire(run.dedupKey, [run]));
      // A transaction: the fire record and the run (2 units each), one key entry per list index.
      expect(created?.indexWcu).toEqual({ byJob: 2, byApp: 2, byDay: 2 });

      const triggered = await cost(() =>
        store.recordTrigger(logId, {
          executorAddress: 'http://10.0.1.23:9999/',
          triggerCode: 200,
          triggerMsg: XXL_TRIGGER_MSG,
          dispatchedAt: now,
          deadline: now + 600_000,
        }),
      );
      expect(triggered).toMatchObject({ tableWcu: 1, indexWcu: { running: 1 } });
      expect(Object.keys(triggered?.indexWcu ?? {})).toEqual(['running']);
      // The typical run stays under 1 KB, so each of its writes costs one unit.
      const item = (await rawItem(logId)) ?? {};
      expect(itemSizeBytes(item)).toBeLessThan(1024);

      const plain = await cost(() =>
        store.complete(
          logId,
          { handleCode: 200, handleMsg: '', handleTime: now },
          { markOutcomePending: false },
        ),
      );
      expect(plain).toMatchObject({ tableWcu: 1, indexWcu: { running: 1 } });
      expect(Object.keys(plain?.indexWcu ?? {})).toEqual(['running']);
      expect(await rawItem(logId)).not.toHaveProperty('outcomeBucket');

      const second = await seedRun({ jobId: 12, appName: 'xxl-job-executor-sample', triggerTime: now });
      await store.recordTrigger(second.logId, {
        executorAddress: 'http://10.0.1.23:9999/',
        triggerCode: 200,
        triggerMsg: XXL_TRIGGER_MSG,
        dispatchedAt: now,
        deadline: now + 600_000,
      });
      const marked = await cost(() =>
        store.complete(second.logId, { handleCode: 500, handleMsg: 'boom', handleTime: now }),
      );
      expect(marked).toMatchObject({ tableWcu: 1, indexWcu: { running: 1, outcomePending: 1 } });
      const cleared = await cost(() => store.clearOutcomePending(second.logId));
      expect(cleared).toMatchObject({ tableWcu: 1, indexWcu: { outcomePending: 1 } });
      for (const record of [triggered, plain, marked, cleared]) {
        for (const index of LIST_INDEXES) expect(record?.indexWcu).not.toHaveProperty(index);
      }
    });
  });

  describe('logIds in blocks', () => {
    /** Counter writes on the log sequence since `since`. */
    const sequenceWrites = (since: number) =>
      capacity.slice(since).filter((r) => r.input.TableName === env.resources.tables.control).length;

    it('takes one counter write per block and hands the rest out from memory', async () => {
      const blocks = newStore(100);
      const since = capacity.records.length;
      const ids: number[] = [];
      for (let i = 0; i < 250; i++) ids.push(...(await blocks.allocateLogIds(1)));
      expect(sequenceWrites(since)).toBe(3);
      expect(new Set(ids).size).toBe(250);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('never gives concurrent callers the same id, within a process or across processes', async () => {
      const a = newStore(10);
      const b = newStore(10);
      const calls = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).allocateLogIds(1 + (i % 4)));
      const ids = (await Promise.all(calls)).flat();
      expect(ids).toHaveLength(60 * 2.5);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
    });

    it('serves a request larger than a block with one write, ascending and unique', async () => {
      const blocks = newStore(100);
      const [first = 0] = await blocks.allocateLogIds(1);
      const since = capacity.records.length;
      const many = await blocks.allocateLogIds(250);
      expect(many).toHaveLength(250);
      expect(new Set(many).size).toBe(250);
      expect(many).toEqual([...many].sort((a, b) => a - b));
      expect(many[0]).toBe(first + 1); // the rest of the block first
      expect(sequenceWrites(since)).toBe(1);
      expect(await blocks.allocateLogIds(0)).toEqual([]);
    });
  });

  describe('list (KEYS_ONLY indexes, runs read from the table)', () => {
    const base = Date.now() - 3 * DAY_MS;
    /** 12 runs of one job, one per minute, newest last; every third a success, the others failed. */
    let jobRuns: Run[];

    beforeAll(async () => {
      jobRuns = [];
      for (let i = 0; i < 12; i++) {
        jobRuns.push(
          await seedRun(
            { jobId: 4100, appName: 'list-app', triggerTime: base + i * 60_000 },
            i % 3 === 0 ? 'success' : 'fail',
          ),
        );
      }
    });
    const newestFirst = (runs: readonly Run[]) => [...runs].sort((a, b) => b.triggerTime - a.triggerTime);

    it("pages a job's runs newest first, every run once, the cursor resuming after the last one", async () => {
      const { pages, runs, exhausted } = await allPages({ jobId: 4100, limit: 5 });
      expect(pages.map((p) => p.length)).toEqual([5, 5, 2]);
      expect(ids(runs)).toEqual(ids(newestFirst(jobRuns)));
      expect(exhausted).toBe(true);
      expect(runs[0]).toEqual(newestFirst(jobRuns)[0]);
      expect(runs[0]).not.toHaveProperty('day');
    });

    it('filters by status on the stored runs, across pages, without skipping or repeating', async () => {
      const { runs, exhausted } = await allPages({ jobId: 4100, status: 'success', limit: 2 });
      const successes = newestFirst(jobRuns).filter((r) => r.handleCode === 200);
      expect(ids(runs)).toEqual(ids(successes));
      expect(exhausted).toBe(true);
      const failed = await allPages({ jobId: 4100, status: 'fail', limit: 3 });
      expect(ids(failed.runs)).toEqual(ids(newestFirst(jobRuns).filter((r) => r.handleCode === 500)));
    });

    it('answers a full page when the match that fills it is mid-way through the keys it read', async () => {
      // limit 1 under a filter reads several keys a round; the cursor must point at the match, not past the keys.
      const first = await store.list({ jobId: 4100, status: 'fail', limit: 1 });
      const second = await store.list({ jobId: 4100, status: 'fail', limit: 1, cursor: first.nextCursor });
      const fails = newestFirst(jobRuns).filter((r) => r.handleCode === 500);
      expect(ids([...first.items, ...second.items])).toEqual(ids(fails.slice(0, 2)));
    });

    it('sees a status change at once (the filter reads the table, not the lagging index)', async () => {
      const run = await seedRun({ jobId: 4200, appName: 'list-app-2', triggerTime: base }, 'running');
      expect(ids((await store.list({ jobId: 4200, status: 'running', limit: 10 })).items)).toEqual([
        run.logId,
      ]);
      await store.complete(run.logId, { handleCode: 200, handleMsg: '', handleTime: base });
      expect((await store.list({ jobId: 4200, status: 'running', limit: 10 })).items).toEqual([]);
      expect(ids((await store.list({ jobId: 4200, status: 'success', limit: 10 })).items)).toEqual([
        run.logId,
      ]);
    });

    it("lists an app's runs within a time range", async () => {
      const from = base + 3 * 60_000;
      const to = base + 6 * 60_000;
      const { runs } = await allPages({ appName: 'list-app', from, to, limit: 2 });
      expect(ids(runs)).toEqual(
        ids(newestFirst(jobRuns.filter((r) => r.triggerTime >= from && r.triggerTime <= to))),
      );
    });

    it('walks the days back without a job or app, resuming on the right day', async () => {
      const dayBase = Date.now() - 20 * DAY_MS;
      const spread: Run[] = [];
      for (const day of [0, 0, 1, 3, 3, 3]) {
        spread.push(
          await seedRun(
            { jobId: 4300, appName: 'days-app', triggerTime: dayBase + day * DAY_MS + spread.length * 1000 },
            'success',
          ),
        );
      }
      const window = { from: dayBase - 1, to: dayBase + 4 * DAY_MS };
      const { pages, runs, exhausted } = await allPages({ ...window, limit: 4 });
      expect(ids(runs)).toEqual(ids(newestFirst(spread)));
      expect(pages[0]).toHaveLength(4);
      expect(exhausted).toBe(true);
      const filtered = await allPages({ ...window, status: 'fail', limit: 4 });
      expect(filtered.runs).toEqual([]);
    });
  });

  it('finds overdue runs through the running index, and no longer once they have their result', async () => {
    const now = Date.now();
    const run = await seedRun({ jobId: 4500, appName: 'overdue-app', triggerTime: now - 60_000 });
    await store.recordTrigger(run.logId, {
      executorAddress: 'http://127.0.0.1:9/',
      triggerCode: 200,
      triggerMsg: 'ok',
      dispatchedAt: now - 60_000,
      deadline: now - 1_000,
    });
    expect(ids(await store.findOverdue(now, 500))).toContain(run.logId);
    await store.complete(run.logId, { handleCode: 500, handleMsg: 'late', handleTime: now });
    expect(ids(await store.findOverdue(now, 500))).not.toContain(run.logId);
  });

  it('finds the most overdue runs first, whichever partition of the running index holds them', async () => {
    const now = Date.now();
    const runs = [];
    for (let i = 0; i < 10; i++) {
      const run = await seedRun({ jobId: 4600, appName: 'overdue-many', triggerTime: now - 60_000 });
      await store.recordTrigger(run.logId, {
        executorAddress: 'http://127.0.0.1:9/',
        triggerCode: 200,
        triggerMsg: 'ok',
        dispatchedAt: now - 60_000,
        deadline: now - 50_000 + i * 1_000, // the first seeded is the most overdue
      });
      runs.push(run);
    }
    expect(ids(await store.findOverdue(now, 3))).toEqual(ids(runs.slice(0, 3)));
    expect(ids(await store.findOverdue(now, 500))).toEqual(expect.arrayContaining(ids(runs)));
    for (const run of runs)
      await store.complete(run.logId, { handleCode: 500, handleMsg: 'late', handleTime: now });
  });
});

function ids(runs: readonly Run[]): number[] {
  return runs.map((r) => r.logId);
}
