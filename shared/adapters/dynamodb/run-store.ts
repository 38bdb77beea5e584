import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../../domain/errors.js';
import {
  dayOf,
  HANDLE_CODE,
  type Run,
  type RunStatus,
  TRIGGER_CODE,
  truncateMessage,
} from '../../domain/run.js';
import type { Page } from '../../ports/job-store.js';
import {
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
import { batchGetAll, decodeCursor, encodeCursor, type Item, isConditionFailed } from './util.js';

const LOG_SEQUENCE_KEY = 'seq#log';
const RUNNING_BUCKET = 'RUNNING';
const OUTCOME_PENDING_BUCKET = 'PENDING';
const DAY_MS = 86_400_000;

export interface DynamoRunStoreOptions {
  readonly doc: DynamoDBDocumentClient;
  readonly runsTable: string;
  readonly controlTable: string;
  /** Runs and fire records expire (DynamoDB TTL) this many days after their trigger. */
  readonly retentionDays: number;
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
}

const STATUS_FILTERS: Readonly<Record<RunStatus, string>> = {
  running: '(triggerCode = :zero OR triggerCode = :ok) AND handleCode = :zero',
  success: 'handleCode = :ok',
  fail: 'handleCode <> :ok AND NOT ((triggerCode = :zero OR triggerCode = :ok) AND handleCode = :zero)',
};

export class DynamoRunStore implements RunStore {
  constructor(private readonly options: DynamoRunStoreOptions) {}

  async allocateLogIds(count: number): Promise<number[]> {
    const result = await this.options.doc.send(
      new UpdateCommand({
        TableName: this.options.controlTable,
        Key: { pk: LOG_SEQUENCE_KEY },
        UpdateExpression: 'ADD #v :n',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':n': count },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const last = Number(result.Attributes?.value);
    return Array.from({ length: count }, (_, i) => last - count + 1 + i);
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
          ':bucket': RUNNING_BUCKET,
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

  async complete(logId: number, result: HandleResult): Promise<CompleteOutcome> {
    try {
      const updated = await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.runsTable,
          Key: { logId },
          UpdateExpression:
            'SET handleCode = :code, handleMsg = :msg, handleTime = :at, ' +
            'outcomeBucket = :pending, outcomeDueAt = :due REMOVE runningBucket, deadline',
          ConditionExpression: 'attribute_exists(logId) AND handleCode = :zero',
          ExpressionAttributeValues: {
            ':code': result.handleCode,
            ':msg': truncateMessage(result.handleMsg),
            ':at': result.handleTime,
            ':zero': 0,
            ':pending': OUTCOME_PENDING_BUCKET,
            ':due': result.handleTime + OUTCOME_GRACE_MS,
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
    if (query.jobId !== undefined) {
      return this.queryIndex(RUNS_BY_JOB_INDEX, 'jobId', query.jobId, from, to, query, query.cursor);
    }
    if (query.appName !== undefined) {
      return this.queryIndex(RUNS_BY_APP_INDEX, 'appName', query.appName, from, to, query, query.cursor);
    }
    // No job or app: walk the by-day index from the newest day back; the cursor remembers the day.
    const position = decodeDayCursor(query.cursor);
    let day = position?.day ?? dayOf(to);
    let start = position?.key;
    const items: Run[] = [];
    const firstDay = dayOf(from);
    while (day >= firstDay && items.length < query.limit) {
      const page = await this.queryIndex(
        RUNS_BY_DAY_INDEX,
        'day',
        day,
        from,
        to,
        { ...query, limit: query.limit - items.length },
        encodeCursor(start),
      );
      items.push(...page.items);
      if (page.nextCursor) return { items, nextCursor: encodeDayCursor(day, decodeCursor(page.nextCursor)) };
      day = dayOf(Date.parse(`${day}T00:00:00Z`) - DAY_MS);
      start = undefined;
    }
    return { items, nextCursor: day >= firstDay ? encodeDayCursor(day, undefined) : undefined };
  }

  async findOverdue(nowMs: number, limit: number): Promise<Run[]> {
    const result = await this.options.doc.send(
      new QueryCommand({
        TableName: this.options.runsTable,
        IndexName: RUNS_RUNNING_INDEX,
        KeyConditionExpression: 'runningBucket = :bucket AND deadline < :now',
        ExpressionAttributeValues: { ':bucket': RUNNING_BUCKET, ':now': nowMs },
        Limit: limit,
      }),
    );
    const runs = await this.getMany((result.Items ?? []).map((i) => Number(i.logId)));
    // The index lags the table: keep only runs that are still unfinished.
    return runs.filter((r) => r.triggerCode === TRIGGER_CODE.success && r.handleCode === 0);
  }

  private async queryIndex(
    indexName: string,
    keyName: string,
    keyValue: string | number,
    from: number,
    to: number,
    query: RunQuery,
    cursor: string | undefined,
  ): Promise<Page<Run>> {
    const items: Run[] = [];
    let start = decodeCursor(cursor);
    for (let round = 0; round < 25 && items.length < query.limit; round++) {
      const result = await this.options.doc.send(
        new QueryCommand({
          TableName: this.options.runsTable,
          IndexName: indexName,
          KeyConditionExpression: '#k = :k AND triggerTime BETWEEN :from AND :to',
          ExpressionAttributeNames: { '#k': keyName },
          ExpressionAttributeValues: {
            ':k': keyValue,
            ':from': from,
            ':to': to,
            ...(query.status ? statusFilterValues(query.status) : {}),
          },
          FilterExpression: query.status ? STATUS_FILTERS[query.status] : undefined,
          ScanIndexForward: false,
          Limit: query.limit - items.length,
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(result.Items ?? []).map(fromItem));
      start = result.LastEvaluatedKey;
      if (!start) break;
    }
    return { items, nextCursor: encodeCursor(start) };
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

/** The values a status filter uses: DynamoDB refuses values an expression does not use. */
function statusFilterValues(status: RunStatus): Record<string, number> {
  const values = { ':zero': 0, ':ok': HANDLE_CODE.success };
  return Object.fromEntries(Object.entries(values).filter(([name]) => STATUS_FILTERS[status].includes(name)));
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
