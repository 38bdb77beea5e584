import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../../domain/errors.js';
import { dayOf, type Run, runStatus, TRIGGER_CODE, truncateMessage } from '../../domain/run.js';
import type { Page } from '../../ports/job-store.js';
import {
  type CompleteOptions,
  type CompleteOutcome,
  type CreateFireResult,
  type HandleResult,
  OUTCOME_GRACE_MS,
  type RunQuery,
  type RunStore,
  type TriggerResult,
} from '../../ports/run-store.js';
import {
  RUNS_BY_APP_INDEX,
  RUNS_BY_DAY_INDEX,
  RUNS_BY_JOB_INDEX,
  RUNS_OUTCOME_PENDING_INDEX,
  RUNS_RUNNING_INDEX,
} from '../../schema/tables.js';
import { DynamoLogIdSequence } from './log-id-sequence.js';
import { batchGetAll, decodeCursor, encodeCursor, type Item, isConditionFailed } from './util.js';

/**
 * The running index's partitions: every accepted run adds an entry and its result removes it, two
 * index writes per run; spread over 8 keys they are not capped by one partition's 1,000 writes/s.
 */
const RUNNING_BUCKETS = 8;
const runningBucketOf = (shard: number) => `RUNNING#${shard}`;
const runningBucket = (logId: number) => runningBucketOf(logId % RUNNING_BUCKETS);
const OUTCOME_PENDING_BUCKET = 'PENDING';
const DAY_MS = 86_400_000;
export const DEFAULT_LOG_ID_BLOCK = 100;
/** Index pages one `list` reads per job, app or day before it answers with a cursor. */
const MAX_LIST_ROUNDS = 25;
/** Index keys looked at per page under a status filter (without one: exactly the runs still wanted). */
const FILTERED_KEYS_PER_ROUND = { min: 10, max: 100 } as const;

export interface DynamoRunStoreOptions {
  readonly doc: DynamoDBDocumentClient;
  readonly runsTable: string;
  readonly controlTable: string;
  /** Runs and fire records expire (DynamoDB TTL) this many days after their trigger. */
  readonly retentionDays: number;
  /**
   * logIds reserved from the sequence per counter write, then handed out from memory.
   * @default 100
   */
  readonly logIdBlockSize?: number;
}

/** Internal attributes kept beside a Run's fields. */
interface RunItem extends Run {
  readonly day: string;
  readonly claimAt: number;
  readonly expiresAt: number;
  readonly runningBucket?: string;
  readonly deadline?: number;
  /** Set (to `PENDING`) while a finished run's consequences are not done: the sparse outcome index. */
  readonly outcomeBucket?: string;
  readonly outcomeDueAt?: number;
  /** Who put a run claimed by its planned logId (`claim`). */
  readonly claimToken?: string;
}

/** A key of a list index (KEYS_ONLY: the run's logId and the index's own keys), usable as a start key. */
type IndexKey = Item;

export class DynamoRunStore implements RunStore {
  private readonly logIdBlockSize: number;
  private readonly sequence: DynamoLogIdSequence;
  /** logIds reserved by this process and not handed out yet: `next` up to `end` (exclusive). */
  private logIdBlock = { next: 0, end: 0 };
  /** The block reservation in flight, which every caller short of ids waits for. */
  private logIdRefill: Promise<void> | undefined;

  constructor(private readonly options: DynamoRunStoreOptions) {
    const blockSize = options.logIdBlockSize ?? DEFAULT_LOG_ID_BLOCK;
    if (!Number.isSafeInteger(blockSize) || blockSize < 1) {
      throw new ValidationError(`logIdBlockSize must be an integer >= 1; got ${blockSize}`, 'logIdBlockSize');
    }
    this.logIdBlockSize = blockSize;
    this.sequence = new DynamoLogIdSequence({ doc: options.doc, controlTable: options.controlTable });
  }

  /**
   * Hands ids out of a block reserved with one counter ADD (`logIdBlockSize` ids), reserving the
   * next block when this one is used up; a request of a block or more reserves exactly what it
   * lacks. Ids stay unique (each block is a range no other process gets), but they are only roughly
   * ordered across processes, and the rest of a block is skipped when its process ends: the
   * sequence has gaps. JavaScript runs one continuation at a time and ids are taken between awaits,
   * so concurrent callers never get the same id.
   */
  async allocateLogIds(count: number): Promise<number[]> {
    const ids: number[] = [];
    while (ids.length < count) {
      const missing = count - ids.length;
      const block = this.logIdBlock;
      if (block.next < block.end) {
        const take = Math.min(missing, block.end - block.next);
        for (let i = 0; i < take; i++) ids.push(block.next++);
      } else if (missing >= this.logIdBlockSize) {
        const last = await this.reserveLogIds(missing);
        for (let id = last - missing + 1; id <= last; id++) ids.push(id);
      } else {
        this.logIdRefill ??= this.reserveLogIds(this.logIdBlockSize)
          .then((last) => {
            this.logIdBlock = { next: last - this.logIdBlockSize + 1, end: last + 1 };
          })
          .finally(() => {
            this.logIdRefill = undefined;
          });
        await this.logIdRefill;
      }
    }
    return ids;
  }

  /** Moves the sequence on by `count`; the last id of the reserved range. */
  private async reserveLogIds(count: number): Promise<number> {
    return (await this.sequence.reserve(count)) + count - 1;
  }

  async createFire(dedupKey: string, runs: readonly Run[]): Promise<CreateFireResult> {
    const { doc, runsTable, controlTable } = this.options;
    const expiresAt = this.expiresAt(runs[0]?.triggerTime ?? Date.now());
    try {
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: controlTable,
                Item: { pk: fireKey(dedupKey), logIds: runs.map((r) => r.logId), expiresAt },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            ...runs.map((run) => ({
              Put: {
                TableName: runsTable,
                Item: this.toItem(run),
                ConditionExpression: 'attribute_not_exists(logId)',
              },
            })),
          ],
        }),
      );
      return { created: true };
    } catch (err) {
      const cancelled =
        err instanceof TransactionCanceledException ||
        (err instanceof Error && err.name === 'TransactionCanceledException');
      if (!cancelled) throw err;
      const { Item: fire } = await doc.send(
        new GetCommand({ TableName: controlTable, Key: { pk: fireKey(dedupKey) }, ConsistentRead: true }),
      );
      if (!fire) throw err; // cancelled for another reason (e.g. a logId collision): let it be retried
      return { created: false, logIds: ((fire.logIds as number[] | undefined) ?? []).map(Number) };
    }
  }

  async claim(run: Run, claimToken: string): Promise<CreateFireResult> {
    const item: RunItem = { ...this.toItem(run), claimToken };
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.runsTable,
          Item: item,
          ConditionExpression: 'attribute_not_exists(logId)',
        }),
      );
      return { created: true };
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
    const { Item: existing } = await this.options.doc.send(
      new GetCommand({
        TableName: this.options.runsTable,
        Key: { logId: run.logId },
        ProjectionExpression: 'claimToken',
        ConsistentRead: true,
      }),
    );
    return existing?.claimToken === claimToken ? { created: true } : { created: false, logIds: [run.logId] };
  }

  async get(logId: number): Promise<Run | undefined> {
    const { Item: item } = await this.options.doc.send(
      new GetCommand({ TableName: this.options.runsTable, Key: { logId }, ConsistentRead: true }),
    );
    return item ? fromItem(item) : undefined;
  }

  async getMany(logIds: readonly number[]): Promise<Run[]> {
    const items = await batchGetAll(
      this.options.doc,
      this.options.runsTable,
      [...new Set(logIds)].map((logId) => ({ logId })),
    );
    return items.map(fromItem);
  }

  async reclaim(logId: number, nowMs: number, staleBeforeMs: number): Promise<boolean> {
    return this.conditionalUpdate({
      Key: { logId },
      UpdateExpression: 'SET claimAt = :now',
      ConditionExpression: 'triggerCode = :zero AND claimAt < :stale',
      ExpressionAttributeValues: { ':now': nowMs, ':stale': staleBeforeMs, ':zero': 0 },
    });
  }

  async recordTrigger(logId: number, result: TriggerResult): Promise<boolean> {
    const values = {
      ':address': result.executorAddress,
      ':code': result.triggerCode,
      ':msg': truncateMessage(result.triggerMsg),
      ':at': result.dispatchedAt,
      ':zero': 0,
    };
    const base = 'SET executorAddress = :address, triggerCode = :code, triggerMsg = :msg, dispatchedAt = :at';
    if (result.triggerCode === TRIGGER_CODE.success) {
      // An accepted run joins the running index, unless a fast executor's result already came in.
      const joined = await this.conditionalUpdate({
        Key: { logId },
        UpdateExpression: `${base}, runningBucket = :bucket, deadline = :deadline`,
        ConditionExpression: 'triggerCode = :zero AND handleCode = :zero',
        ExpressionAttributeValues: {
          ...values,
          ':bucket': runningBucket(logId),
          ':deadline': result.deadline ?? result.dispatchedAt + 600_000,
        },
      });
      if (joined) return true;
    }
    if (result.triggerCode === TRIGGER_CODE.success) {
      return this.conditionalUpdate({
        Key: { logId },
        UpdateExpression: base,
        ConditionExpression: 'triggerCode = :zero',
        ExpressionAttributeValues: values,
      });
    }
    // A refused trigger finishes the run: mark its outcome pending in the same write.
    return this.conditionalUpdate({
      Key: { logId },
      UpdateExpression: `${base}, outcomeBucket = :pending, outcomeDueAt = :due`,
      ConditionExpression: 'triggerCode = :zero',
      ExpressionAttributeValues: {
        ...values,
        ':pending': OUTCOME_PENDING_BUCKET,
        ':due': result.dispatchedAt + OUTCOME_GRACE_MS,
      },
    });
  }

  async complete(
    logId: number,
    result: HandleResult,
    options: CompleteOptions = {},
  ): Promise<CompleteOutcome> {
    const mark = options.markOutcomePending ?? true;
    try {
      const updated = await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.runsTable,
          Key: { logId },
          UpdateExpression:
            'SET handleCode = :code, handleMsg = :msg, handleTime = :at' +
            `${mark ? ', outcomeBucket = :pending, outcomeDueAt = :due' : ''} REMOVE runningBucket, deadline`,
          ConditionExpression: 'attribute_exists(logId) AND handleCode = :zero',
          ExpressionAttributeValues: {
            ':code': result.handleCode,
            ':msg': truncateMessage(result.handleMsg),
            ':at': result.handleTime,
            ':zero': 0,
            ...(mark
              ? { ':pending': OUTCOME_PENDING_BUCKET, ':due': result.handleTime + OUTCOME_GRACE_MS }
              : {}),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { kind: 'completed', run: fromItem(updated.Attributes ?? {}) };
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
      const run = await this.get(logId);
      return run ? { kind: 'already-finished', run } : { kind: 'unknown' };
    }
  }

  async clearOutcomePending(logId: number): Promise<void> {
    await this.conditionalUpdate({
      Key: { logId },
      UpdateExpression: 'REMOVE outcomeBucket, outcomeDueAt',
      ConditionExpression: 'attribute_exists(logId)',
    });
  }

  async findOutcomePending(nowMs: number, limit: number): Promise<Run[]> {
    const result = await this.options.doc.send(
      new QueryCommand({
        TableName: this.options.runsTable,
        IndexName: RUNS_OUTCOME_PENDING_INDEX,
        KeyConditionExpression: 'outcomeBucket = :bucket AND outcomeDueAt < :now',
        ExpressionAttributeValues: { ':bucket': OUTCOME_PENDING_BUCKET, ':now': nowMs },
        Limit: limit,
      }),
    );
    const items = await batchGetAll(
      this.options.doc,
      this.options.runsTable,
      [...new Set((result.Items ?? []).map((i) => Number(i.logId)))].map((logId) => ({ logId })),
    );
    // The index lags the table: keep only runs still marked.
    return items.filter((item) => item.outcomeBucket === OUTCOME_PENDING_BUCKET).map(fromItem);
  }

  async setAlarmStatus(logId: number, alarmStatus: number): Promise<void> {
    await this.conditionalUpdate({
      Key: { logId },
      UpdateExpression: 'SET alarmStatus = :status',
      ConditionExpression: 'attribute_exists(logId)',
      ExpressionAttributeValues: { ':status': alarmStatus },
    });
  }

  async list(query: RunQuery): Promise<Page<Run>> {
    const to = query.to ?? Date.now() + DAY_MS;
    const from = query.from ?? to - (this.options.retentionDays + 1) * DAY_MS;
    if (from > to) throw new ValidationError('from must not be after to', 'from');
    if (query.jobId !== undefined || query.appName !== undefined) {
      const [indexName, keyName, keyValue] =
        query.jobId !== undefined
          ? [RUNS_BY_JOB_INDEX, 'jobId', query.jobId]
          : [RUNS_BY_APP_INDEX, 'appName', query.appName as string];
      const page = await this.queryIndex(
        { indexName, keyName, keyValue, from, to },
        query,
        query.limit,
        decodeCursor(query.cursor),
      );
      return { items: page.items, nextCursor: encodeCursor(page.next) };
    }
    // No job or app: walk the by-day index from the newest day back; the cursor remembers the day.
    const position = decodeDayCursor(query.cursor);
    let day = position?.day ?? dayOf(to);
    let start = position?.key;
    const items: Run[] = [];
    const firstDay = dayOf(from);
    while (day >= firstDay && items.length < query.limit) {
      const page = await this.queryIndex(
        { indexName: RUNS_BY_DAY_INDEX, keyName: 'day', keyValue: day, from, to },
        query,
        query.limit - items.length,
        start,
      );
      items.push(...page.items);
      if (page.next) return { items, nextCursor: encodeDayCursor(day, page.next) };
      day = dayOf(Date.parse(`${day}T00:00:00Z`) - DAY_MS);
      start = undefined;
    }
    return { items, nextCursor: day >= firstDay ? encodeDayCursor(day, undefined) : undefined };
  }

  async findOverdue(nowMs: number, limit: number): Promise<Run[]> {
    const buckets = Array.from({ length: RUNNING_BUCKETS }, (_, shard) => runningBucketOf(shard));
    const pages = await Promise.all(
      buckets.map((bucket) =>
        this.options.doc.send(
          new QueryCommand({
            TableName: this.options.runsTable,
            IndexName: RUNS_RUNNING_INDEX,
            KeyConditionExpression: 'runningBucket = :bucket AND deadline < :now',
            ExpressionAttributeValues: { ':bucket': bucket, ':now': nowMs },
            Limit: limit,
          }),
        ),
      ),
    );
    // The most overdue first, across the partitions.
    const keys = pages
      .flatMap((page) => page.Items ?? [])
      .sort((a, b) => Number(a.deadline) - Number(b.deadline))
      .slice(0, limit);
    const byLogId = new Map((await this.getMany(keys.map((i) => Number(i.logId)))).map((r) => [r.logId, r]));
    // The index lags the table: keep only runs that are still unfinished, most overdue first.
    return keys
      .flatMap((key) => byLogId.get(Number(key.logId)) ?? [])
      .filter((r) => r.triggerCode === TRIGGER_CODE.success && r.handleCode === 0);
  }

  /**
   * Up to `wanted` runs of one partition of a KEYS_ONLY list index, newest first: the keys come
   * from the index, the runs (and the status they are filtered on) from the table, strongly
   * consistent. `next` is the key of the last index entry examined, absent when the partition is
   * exhausted: a run past the one that filled the page is never skipped.
   */
  private async queryIndex(
    partition: {
      indexName: string;
      keyName: string;
      keyValue: string | number;
      from: number;
      to: number;
    },
    query: Pick<RunQuery, 'status'>,
    wanted: number,
    start: IndexKey | undefined,
  ): Promise<{ items: Run[]; next: IndexKey | undefined }> {
    const items: Run[] = [];
    let next = start;
    for (let round = 0; round < MAX_LIST_ROUNDS && items.length < wanted; round++) {
      const stillWanted = wanted - items.length;
      const result = await this.options.doc.send(
        new QueryCommand({
          TableName: this.options.runsTable,
          IndexName: partition.indexName,
          KeyConditionExpression: '#k = :k AND triggerTime BETWEEN :from AND :to',
          ExpressionAttributeNames: { '#k': partition.keyName },
          ExpressionAttributeValues: {
            ':k': partition.keyValue,
            ':from': partition.from,
            ':to': partition.to,
          },
          ScanIndexForward: false,
          Limit: query.status
            ? Math.min(FILTERED_KEYS_PER_ROUND.max, Math.max(FILTERED_KEYS_PER_ROUND.min, stillWanted * 2))
            : stillWanted,
          ExclusiveStartKey: next,
        }),
      );
      const keys = (result.Items ?? []) as IndexKey[];
      const stored = await batchGetAll(
        this.options.doc,
        this.options.runsTable,
        keys.map((key) => ({ logId: key.logId })),
      );
      const byLogId = new Map(stored.map((item) => [Number(item.logId), item]));
      let filledAt = -1;
      for (const [i, key] of keys.entries()) {
        // Missing: deleted (TTL) since the index entry was read.
        const item = byLogId.get(Number(key.logId));
        if (item && (!query.status || runStatus(item as unknown as Run) === query.status)) {
          items.push(fromItem(item));
        }
        if (items.length >= wanted) {
          filledAt = i;
          break;
        }
      }
      if (filledAt >= 0 && filledAt < keys.length - 1) return { items, next: keys[filledAt] };
      next = result.LastEvaluatedKey;
      if (!next) break;
    }
    return { items, next };
  }

  private async conditionalUpdate(
    update: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>,
  ): Promise<boolean> {
    try {
      await this.options.doc.send(new UpdateCommand({ TableName: this.options.runsTable, ...update }));
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }

  private expiresAt(triggerTime: number): number {
    return Math.floor(triggerTime / 1000) + this.options.retentionDays * 86_400;
  }

  private toItem(run: Run): RunItem {
    return {
      ...run,
      day: dayOf(run.triggerTime),
      claimAt: run.triggerTime,
      expiresAt: this.expiresAt(run.triggerTime),
    };
  }
}

function fireKey(dedupKey: string): string {
  return `fire#${dedupKey}`;
}

function fromItem(item: Item): Run {
  const {
    day: _d,
    claimAt: _c,
    expiresAt: _e,
    runningBucket: _r,
    deadline: _dl,
    outcomeBucket: _ob,
    outcomeDueAt: _od,
    claimToken: _ct,
    ...run
  } = item;
  return run as unknown as Run;
}

function encodeDayCursor(day: string, key: Item | undefined): string {
  return Buffer.from(JSON.stringify({ day, key })).toString('base64url');
}

function decodeDayCursor(cursor: string | undefined): { day: string; key?: Item } | undefined {
  const decoded = decodeCursor(cursor);
  if (decoded === undefined) return undefined;
  if (typeof decoded.day !== 'string' || !/^\d{4}-\d\d-\d\d$/.test(decoded.day)) {
    throw new ValidationError('cursor is not a cursor this API returned', 'cursor');
  }
  return { day: decoded.day, key: decoded.key as Item | undefined };
}
