import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Logger } from '@tickring/core/common';
import type { Run } from '@tickring/core/runs';
import { makeRun } from '@tickring/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { DynamoRunStore } from './runs/run-store.js';

// The all-runs and app lists read the dispatch records (`P#{hour}`) hour by hour back from now. These
// tests hold the walk to the hours that have records: a new or sparse table lists in one page, with
// a handful of requests, instead of querying every hour of the retention (~720) and answering a cursor.

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const RETENTION_DAYS = 30;

function hourStartOf(epochMs: number): number {
  return epochMs - (epochMs % HOUR_MS);
}

function hourOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 13);
}

function ids(runs: readonly Run[]): number[] {
  return runs.map((r) => r.logId);
}

/** Every DynamoDB call made through `doc`: its command and input (as sent). */
function recordRequests(doc: DynamoDBDocumentClient) {
  const calls: { command: string; input: Record<string, unknown> }[] = [];
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      calls.push({
        command: String(context.commandName ?? ''),
        input: args.input as Record<string, unknown>,
      });
      return next(args);
    },
    { step: 'initialize', name: 'recordRequests', override: true },
  );
  return {
    since: () => {
      const start = calls.length;
      return () => calls.slice(start);
    },
  };
}

/** The partition key a call's input names (`ExpressionAttributeValues[':pk']`, `Key.pk`, `Item.pk`), plain or marshalled. */
function pkOf(input: Record<string, unknown>): string | undefined {
  const plain = (v: unknown) =>
    typeof v === 'string'
      ? v
      : v && typeof v === 'object' && 'S' in v
        ? String((v as { S: unknown }).S)
        : undefined;
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  const key = (input.Key ?? input.Item) as Record<string, unknown> | undefined;
  return plain(values?.[':pk']) ?? plain(key?.pk);
}

/** How many queries of dispatch-record hours (`P#…`) the calls made. */
function hourQueries(calls: readonly { command: string; input: Record<string, unknown> }[]): number {
  return calls.filter((c) => c.command === 'QueryCommand' && pkOf(c.input)?.startsWith('P#')).length;
}

class Tables {
  readonly requests;
  /** The claim token each run was recorded under, by logId. */
  readonly tokens = new Map<number, string>();

  private constructor(readonly env: TestResources) {
    this.requests = recordRequests(env.clients.doc);
  }

  static async create(label: string): Promise<Tables> {
    return new Tables(await isolatedResources(label));
  }

  /** A store on these tables: each stands for one function instance (its own memory of what it wrote). */
  store(logger?: Logger): DynamoRunStore {
    return new DynamoRunStore({
      doc: this.env.clients.doc,
      runsTable: this.env.resources.tables.runs,
      controlTable: this.env.resources.tables.control,
      retentionDays: RETENTION_DAYS,
      ...(logger ? { logger } : {}),
    });
  }

  /** A run claimed at `at` and recorded as sent under a claim token of that time, as a dispatcher does. */
  async sentRun(store: DynamoRunStore, jobId: number, appName: string, at: number): Promise<Run> {
    const [logId] = await store.allocateLogIds(jobId, 1);
    if (logId === undefined) throw new Error('no logId');
    const run = makeRun({
      logId,
      jobId,
      appName,
      dedupKey: `walk#${logId}`,
      triggerTime: at,
      scheduledTime: at,
      dispatchedAt: at,
      executorAddress: 'http://127.0.0.1:9999/',
      triggerCode: 200,
    });
    const token = store.newClaimToken(at);
    expect(await store.createFire(run.dedupKey, [run], token)).toEqual({ created: true });
    await store.recordDispatch(token, [{ logId, appName, deadline: at + 600_000 }]);
    this.tokens.set(logId, token);
    return run;
  }

  /**
   * A run recorded as a version without the hour index recorded it: the run and its dispatch
   * record, written straight to the table.
   */
  async legacyRun(store: DynamoRunStore, jobId: number, appName: string, at: number): Promise<Run> {
    const [logId] = await store.allocateLogIds(jobId, 1);
    if (logId === undefined) throw new Error('no logId');
    const run = makeRun({
      logId,
      jobId,
      appName,
      dedupKey: `legacy#${logId}`,
      triggerTime: at,
      scheduledTime: at,
      dispatchedAt: at,
      executorAddress: 'http://127.0.0.1:9999/',
      triggerCode: 200,
    });
    const token = store.newClaimToken(at);
    await store.createFire(run.dedupKey, [run], token);
    const [hour, sk] = token.split('/');
    await this.env.clients.doc.send(
      new UpdateCommand({
        TableName: this.env.resources.tables.runs,
        Key: { pk: `P#${hour}`, sk: Number(sk) },
        UpdateExpression: 'SET logIds = :logIds, apps = :apps, deadlines = :deadlines, expiresAt = :expires',
        ExpressionAttributeValues: {
          ':logIds': [logId],
          ':apps': [appName],
          ':deadlines': [at + 600_000],
          ':expires': Math.floor(at / 1000) + RETENTION_DAYS * 86_400,
        },
      }),
    );
    return run;
  }

  async rawItem(key: { pk: string; sk: number }) {
    const { Item } = await this.env.clients.doc.send(
      new GetCommand({ TableName: this.env.resources.tables.runs, Key: key, ConsistentRead: true }),
    );
    return Item;
  }

  async putWatchCursor(item: Record<string, unknown>): Promise<void> {
    await this.env.clients.doc.send(
      new PutCommand({ TableName: this.env.resources.tables.runs, Item: { pk: 'WATCH', sk: 0, ...item } }),
    );
  }

  /** The hours of the hour index, oldest first. */
  async indexedHours(): Promise<number[]> {
    const { Items = [] } = await this.env.clients.doc.send(
      new QueryCommand({
        TableName: this.env.resources.tables.runs,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'HOURS' },
        ConsistentRead: true,
      }),
    );
    return Items.map((item) => Number(item.sk));
  }

  close(): void {
    this.env.close();
  }
}

/** Every page of an unfiltered list (or `query`'s), following the cursors. */
async function allPages(store: DynamoRunStore, query: Parameters<DynamoRunStore['list']>[0], maxPages = 50) {
  const pages: Run[][] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ ...query, cursor });
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor && pages.length < maxPages);
  return { pages, runs: pages.flat(), exhausted: cursor === undefined };
}

describe('DynamoRunStore list walk: a new table (DynamoDB Local)', () => {
  let t: Tables;
  beforeAll(async () => {
    t = await Tables.create('walk-new');
  });
  afterAll(() => t?.close());

  it('lists an empty table as one empty page without a cursor, in a couple of requests', async () => {
    const store = t.store();
    const calls = t.requests.since();
    // Counted in requests, not timed: the time of six requests depends on the machine's load.
    expect(await store.list({ limit: 20 })).toEqual({ items: [] });
    expect(await store.list({ appName: 'nobody', limit: 20 })).toEqual({ items: [] });
    expect(await store.list({ jobId: 77, limit: 20 })).toEqual({ items: [] });
    expect(hourQueries(calls())).toBe(0);
    expect(calls().length).toBeLessThanOrEqual(6);
  });
});

describe('DynamoRunStore list walk: runs in the last hour only (DynamoDB Local)', () => {
  let t: Tables;
  let recent: Run[];
  beforeAll(async () => {
    t = await Tables.create('walk-recent');
    const store = t.store();
    const now = Date.now();
    recent = [];
    for (let i = 5; i >= 1; i--) {
      recent.unshift(
        await t.sentRun(store, 10 + (i % 2), i % 2 ? 'walk-odd' : 'walk-even', now - i * MINUTE_MS),
      );
    }
  });
  afterAll(() => t?.close());

  it('answers them in one page without a cursor, reading only the hours that have records', async () => {
    const store = t.store();
    const calls = t.requests.since();
    const page = await store.list({ limit: 50 });
    expect(ids(page.items)).toEqual(ids(recent));
    expect(page.nextCursor).toBeUndefined();
    // The records are in this hour, or the last one as well when the test straddles an hour.
    expect(hourQueries(calls())).toBeLessThanOrEqual(2);
    // Besides them: the watch cursor (where the index starts), the index, and the runs of each record.
    const others = calls().filter((c) => c.command !== 'BatchGetItemCommand');
    expect(others.map((c) => c.command).sort()).toEqual(
      ['GetItemCommand', 'QueryCommand', ...Array(hourQueries(calls())).fill('QueryCommand')].sort(),
    );
  });

  it("lists an app's runs the same way", async () => {
    const store = t.store();
    const calls = t.requests.since();
    const page = await store.list({ appName: 'walk-odd', limit: 50 });
    expect(ids(page.items)).toEqual(ids(recent.filter((r) => r.appName === 'walk-odd')));
    expect(page.nextCursor).toBeUndefined();
    expect(hourQueries(calls())).toBeLessThanOrEqual(2);
  });

  it('pages through them with cursors, every run once, the last page without a cursor', async () => {
    const store = t.store();
    for (const limit of [1, 2, 3]) {
      const calls = t.requests.since();
      const { runs, exhausted, pages } = await allPages(store, { limit });
      expect(ids(runs), `limit ${limit}`).toEqual(ids(recent));
      expect(exhausted).toBe(true);
      expect(pages.length).toBeLessThanOrEqual(Math.ceil(recent.length / limit) + 1);
      const others = calls().filter((c) => c.command !== 'BatchGetItemCommand');
      expect(others.length / pages.length, `limit ${limit}`).toBeLessThanOrEqual(4);
    }
  });

  it("lists a job's runs from its own partition in one page", async () => {
    const store = t.store();
    const calls = t.requests.since();
    const page = await store.list({ jobId: 11, limit: 50 });
    expect(ids(page.items)).toEqual(ids(recent.filter((r) => r.jobId === 11)));
    expect(page.nextCursor).toBeUndefined();
    expect(hourQueries(calls())).toBe(0);
  });
});

describe('DynamoRunStore list walk: sparse records (DynamoDB Local)', () => {
  let t: Tables;
  let all: Run[];
  beforeAll(async () => {
    t = await Tables.create('walk-sparse');
    const now = Date.now();
    const first = t.store();
    const newest = await t.sentRun(first, 20, 'walk-sparse', now - 2 * MINUTE_MS);
    const week = await t.sentRun(first, 20, 'walk-sparse', now - 7 * DAY_MS);
    // Another instance (another dispatcher) records in an earlier hour after this one wrote later ones.
    const oldest = await t.sentRun(t.store(), 21, 'walk-sparse-b', now - 20 * DAY_MS);
    all = [newest, week, oldest];
  });
  afterAll(() => t?.close());

  it('finds runs days apart in one page, skipping the empty hours between', async () => {
    const store = t.store();
    const calls = t.requests.since();
    const page = await store.list({ limit: 50 });
    expect(ids(page.items)).toEqual(ids(all));
    expect(page.nextCursor).toBeUndefined();
    expect(hourQueries(calls())).toBeLessThanOrEqual(3);
  });

  it('pages across them one run at a time, and keeps to a time range', async () => {
    const store = t.store();
    const { runs, exhausted } = await allPages(store, { limit: 1 });
    expect(ids(runs)).toEqual(ids(all));
    expect(exhausted).toBe(true);
    const week = all[1] as Run;
    const range = await allPages(store, { from: week.triggerTime - HOUR_MS, to: week.triggerTime, limit: 1 });
    expect(ids(range.runs)).toEqual([week.logId]);
    expect(range.exhausted).toBe(true);
    const app = await store.list({ appName: 'walk-sparse-b', limit: 50 });
    expect(app).toEqual({ items: [all[2]] });
  });
});

describe('DynamoRunStore list walk: the hour index (DynamoDB Local)', () => {
  let t: Tables;
  beforeAll(async () => {
    t = await Tables.create('walk-index');
  });
  afterAll(() => t?.close());

  it('writes each hour to the index once per instance, to expire after the records of the hour', async () => {
    const now = Date.now();
    const hour = hourStartOf(now - 3 * HOUR_MS);
    const indexWrites = (calls: readonly { command: string; input: Record<string, unknown> }[]) =>
      calls.filter(
        (c) => c.command !== 'QueryCommand' && c.command !== 'GetItemCommand' && pkOf(c.input) === 'HOURS',
      ).length;
    const a = t.store();
    const calls = t.requests.since();
    for (let i = 0; i < 3; i++) await t.sentRun(a, 30, 'walk-index', hour + (10 + i) * MINUTE_MS);
    expect(indexWrites(calls())).toBe(1);
    await t.sentRun(t.store(), 30, 'walk-index', hour + 20 * MINUTE_MS);
    expect(indexWrites(calls())).toBe(2);
    await t.sentRun(a, 30, 'walk-index', hour + HOUR_MS + MINUTE_MS);
    expect(indexWrites(calls())).toBe(3);
    expect(await t.indexedHours()).toEqual([hour, hour + HOUR_MS]);
    const entry = await t.rawItem({ pk: 'HOURS', sk: hour });
    expect(entry?.expiresAt).toBe((hour + HOUR_MS) / 1000 + RETENTION_DAYS * 86_400);
  });

  it('does not fail a dispatch record when the index write fails: it logs it and writes the hour with a later record', async () => {
    const tf = await Tables.create('walk-fail');
    try {
      let failing = true;
      tf.env.clients.doc.middlewareStack.add(
        (next, context) => async (args) => {
          const input = args.input as Record<string, unknown>;
          if (failing && context.commandName === 'PutItemCommand' && pkOf(input) === 'HOURS') {
            throw Object.assign(new Error('injected: throttled'), {
              name: 'ProvisionedThroughputExceededException',
            });
          }
          return next(args);
        },
        { step: 'initialize', name: 'failHourIndex', override: true },
      );
      const warn = vi.fn();
      const logger: Logger = { debug: vi.fn(), info: vi.fn(), warn, error: vi.fn() };
      const store = tf.store(logger);
      const now = Date.now();
      const at = now - 2 * HOUR_MS;
      const run = await tf.sentRun(store, 40, 'walk-fail', at);
      // The record is written all the same.
      expect(await store.dispatchedUnder(tf.tokens.get(run.logId) ?? '')).toEqual(new Set([run.logId]));
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('hour index'),
        expect.objectContaining({ hour: hourOf(at), error: expect.stringContaining('injected') }),
      );
      expect(await tf.indexedHours()).toEqual([]);
      // The hour is not in the index yet: only the run's job lists it.
      expect(ids((await store.list({ jobId: 40, limit: 5 })).items)).toEqual([run.logId]);
      expect(await store.list({ limit: 50 })).toEqual({ items: [] });
      failing = false;
      // The next record, of another hour, writes the hour that failed too.
      const later = await tf.sentRun(store, 40, 'walk-fail', now - MINUTE_MS);
      expect(await tf.indexedHours()).toEqual([hourStartOf(at), hourStartOf(now - MINUTE_MS)]);
      expect(ids((await store.list({ limit: 50 })).items)).toEqual([later.logId, run.logId]);
    } finally {
      tf.close();
    }
  });
});

describe('DynamoRunStore list walk: a table written before the hour index (DynamoDB Local)', () => {
  let t: Tables;
  let legacy: Run;
  let indexed: Run;
  beforeAll(async () => {
    t = await Tables.create('walk-legacy');
    const store = t.store();
    const now = Date.now();
    // A version without the index swept the table (its watch cursor) and recorded a run two days back.
    await t.putWatchCursor({ dispatchedThrough: (now - MINUTE_MS) * 1000, watchedThrough: now * 1000 });
    legacy = await t.legacyRun(store, 50, 'walk-legacy', now - 2 * DAY_MS);
    indexed = await t.sentRun(store, 50, 'walk-legacy', now - MINUTE_MS);
  });
  afterAll(() => t?.close());

  const window = () => ({ from: Date.now() - 3 * DAY_MS, limit: 50 });

  it('walks every hour while no sweep of this version has marked where the index starts (the old behaviour)', async () => {
    const { runs, exhausted } = await allPages(t.store(), window());
    expect(ids(runs)).toEqual([indexed.logId, legacy.logId]);
    expect(exhausted).toBe(true);
  });

  it('marks where the index starts at its first sweep, keeps that mark, and still finds the records before it', async () => {
    const store = t.store();
    const now = Date.now();
    await store.findUnfinished(now, { limit: 10, settleMs: 30_000 });
    const mark = (await t.rawItem({ pk: 'WATCH', sk: 0 }))?.hoursIndexedFrom;
    expect(mark).toBe(hourStartOf(now) + 2 * HOUR_MS);
    await store.findUnfinished(now + 5 * MINUTE_MS, { limit: 10, settleMs: 30_000 });
    expect((await t.rawItem({ pk: 'WATCH', sk: 0 }))?.hoursIndexedFrom).toBe(mark);
    const { runs, exhausted } = await allPages(t.store(), window());
    expect(ids(runs)).toEqual([indexed.logId, legacy.logId]);
    expect(exhausted).toBe(true);
  });

  it('walks every hour before the mark and only the indexed hours from it on', async () => {
    const now = Date.now();
    // As if this version had come a day and a half ago: two days back is before the mark, a day back after it.
    const mark = hourStartOf(now - 36 * HOUR_MS);
    const cursor = await t.rawItem({ pk: 'WATCH', sk: 0 });
    await t.putWatchCursor({ ...cursor, hoursIndexedFrom: mark });
    const unindexedAfterMark = await t.legacyRun(t.store(), 51, 'walk-legacy', now - DAY_MS);
    const calls = t.requests.since();
    const { runs, exhausted } = await allPages(t.store(), window(), 200);
    expect(ids(runs)).toEqual([indexed.logId, legacy.logId]);
    expect(ids(runs)).not.toContain(unindexedAfterMark.logId);
    expect(exhausted).toBe(true);
    // Hours before the mark, from three days back: one query each; after it only the indexed one (or two).
    const before = (mark - hourStartOf(now - 3 * DAY_MS - MINUTE_MS)) / HOUR_MS;
    expect(hourQueries(calls())).toBeGreaterThanOrEqual(before);
    expect(hourQueries(calls())).toBeLessThanOrEqual(before + 2);
  });

  it('marks a table no earlier version swept as indexed from the start', async () => {
    const tn = await Tables.create('walk-mark');
    try {
      await tn.store().findUnfinished(Date.now(), { limit: 10, settleMs: 30_000 });
      expect((await tn.rawItem({ pk: 'WATCH', sk: 0 }))?.hoursIndexedFrom).toBe(0);
    } finally {
      tn.close();
    }
  });
});
