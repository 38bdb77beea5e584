import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError, ValidationError } from '@tickring/core/common';
import type {
  DueJobRef,
  Job,
  JobQuery,
  JobStore,
  OutcomeHistory,
  Page,
  PlannableJob,
  PlanState,
  ReadOptions,
  ScheduleAdvance,
} from '@tickring/core/jobs';
import { JOBS_BY_APP_INDEX, JOBS_BY_DUE_INDEX, TTL_ATTRIBUTE } from '../topology/tables.js';
import { batchGetAll, decodeCursor, encodeCursor, type Item, isConditionFailed } from './util.js';

const JOB_SEQUENCE_KEY = 'seq#job';
/** A job's outcome history and its missed-deadline claims live in the control table (small items, own keys). */
const outcomesKey = (id: number) => `outcomes#${id}`;
const deadlineMissKey = (id: number, deadlineAt: number) => `deadlineMiss#${id}#${deadlineAt}`;
const unexplainedFiresKey = (id: number, windowStart: number) => `firesUnexplained#${id}#${windowStart}`;
/** How long a missed-deadline claim is kept (the sweep looks only at the last closed window). */
const DEADLINE_MISS_KEPT_SECONDS = 7 * 24 * 3600;

export interface DynamoJobStoreOptions {
  readonly doc: DynamoDBDocumentClient;
  readonly jobsTable: string;
  /** Holds the id sequence. */
  readonly controlTable: string;
  readonly shardCount: number;
}

/**
 * Jobs in DynamoDB. A running job with a next fire carries `dueShard` and `nextTriggerTime`, the
 * keys of the sparse `byDue` index the tick queries; a stopped job has neither, so it costs the
 * tick nothing.
 */
export class DynamoJobStore implements JobStore {
  constructor(private readonly options: DynamoJobStoreOptions) {}

  async allocateId(): Promise<number> {
    const result = await this.options.doc.send(
      new UpdateCommand({
        TableName: this.options.controlTable,
        Key: { pk: JOB_SEQUENCE_KEY },
        UpdateExpression: 'ADD #v :one',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(result.Attributes?.value);
  }

  async create(job: Job, plan?: PlanState): Promise<void> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.jobsTable,
          Item: this.toItem(job, plan),
          ConditionExpression: 'attribute_not_exists(id)',
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) throw new ConflictError(`job ${job.id} already exists`);
      throw err;
    }
  }

  async get(id: number): Promise<Job | undefined> {
    const { Item: item } = await this.options.doc.send(
      new GetCommand({ TableName: this.options.jobsTable, Key: { id }, ConsistentRead: true }),
    );
    return item ? fromItem(item) : undefined;
  }

  async getMany(ids: readonly number[], read: ReadOptions = {}): Promise<Job[]> {
    const items = await batchGetAll(
      this.options.doc,
      this.options.jobsTable,
      [...new Set(ids)].map((id) => ({ id })),
      { consistent: read.consistency !== 'eventual' },
    );
    return items.map(fromItem);
  }

  async getPlannable(ids: readonly number[]): Promise<PlannableJob[]> {
    const items = await batchGetAll(
      this.options.doc,
      this.options.jobsTable,
      [...new Set(ids)].map((id) => ({ id })),
    );
    return items.map(plannableOf);
  }

  async listLastPlans(limit: number, cursor?: string): Promise<Page<PlannableJob>> {
    const result = await this.options.doc.send(
      new ScanCommand({
        TableName: this.options.jobsTable,
        FilterExpression: 'attribute_exists(lastPlanDue)',
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor),
        ConsistentRead: true,
      }),
    );
    return {
      items: (result.Items ?? []).map(plannableOf),
      nextCursor: encodeCursor(result.LastEvaluatedKey),
    };
  }

  async replace(
    job: Job,
    expected: Pick<Job, 'version' | 'triggerNextTime' | 'triggerStatus'>,
    plan?: PlanState,
  ): Promise<void> {
    // Also conditional on the schedule state that was read, so a write cannot undo a tick's advance.
    const wasDue = expected.triggerStatus === 'RUNNING' && expected.triggerNextTime !== null;
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.jobsTable,
          Item: this.toItem(job, plan),
          ConditionExpression: wasDue
            ? '#version = :version AND nextTriggerTime = :next'
            : '#version = :version AND attribute_not_exists(nextTriggerTime)',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: {
            ':version': expected.version,
            ...(wasDue ? { ':next': expected.triggerNextTime } : {}),
          },
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) {
        const current = await this.get(job.id);
        if (!current) throw new NotFoundError(`job ${job.id} does not exist`);
        throw new ConflictError(`job ${job.id} was changed meanwhile; read it again and retry`);
      }
      throw err;
    }
  }

  async delete(id: number): Promise<void> {
    try {
      await this.options.doc.send(
        new DeleteCommand({
          TableName: this.options.jobsTable,
          Key: { id },
          ConditionExpression: 'attribute_exists(id)',
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) throw new NotFoundError(`job ${id} does not exist`);
      throw err;
    }
  }

  async list(query: JobQuery): Promise<Page<Job>> {
    const { doc, jobsTable } = this.options;
    const statusFilter = query.triggerStatus
      ? {
          FilterExpression: 'triggerStatus = :status',
          ExpressionAttributeValues: { ':status': query.triggerStatus },
        }
      : {};
    if (query.appName === undefined) {
      const result = await doc.send(
        new ScanCommand({
          TableName: jobsTable,
          Limit: query.limit,
          ExclusiveStartKey: listStartKey(query.cursor, undefined),
          ConsistentRead: true,
          ...statusFilter,
        }),
      );
      const items = (result.Items ?? []).map(fromItem).sort((a, b) => a.id - b.id);
      return { items, nextCursor: encodeCursor(result.LastEvaluatedKey) };
    }
    const result = await doc.send(
      new QueryCommand({
        TableName: jobsTable,
        IndexName: JOBS_BY_APP_INDEX,
        KeyConditionExpression: 'appName = :app',
        ExpressionAttributeValues: { ':app': query.appName },
        Limit: query.limit,
        ExclusiveStartKey: listStartKey(query.cursor, query.appName),
      }),
    );
    const jobs = await this.getMany((result.Items ?? []).map((i) => Number(i.id)));
    const items = jobs
      .filter((j) => !query.triggerStatus || j.triggerStatus === query.triggerStatus)
      .sort((a, b) => a.id - b.id);
    return { items, nextCursor: encodeCursor(result.LastEvaluatedKey) };
  }

  async existsForApp(appName: string): Promise<boolean> {
    const result = await this.options.doc.send(
      new QueryCommand({
        TableName: this.options.jobsTable,
        IndexName: JOBS_BY_APP_INDEX,
        KeyConditionExpression: 'appName = :app',
        ExpressionAttributeValues: { ':app': appName },
        Limit: 1,
      }),
    );
    return (result.Items?.length ?? 0) > 0;
  }

  async queryDue(shard: number, untilMs: number, limit: number, cursor?: string): Promise<Page<DueJobRef>> {
    const result = await this.options.doc.send(
      new QueryCommand({
        TableName: this.options.jobsTable,
        IndexName: JOBS_BY_DUE_INDEX,
        KeyConditionExpression: 'dueShard = :shard AND nextTriggerTime < :until',
        ExpressionAttributeValues: { ':shard': shard, ':until': untilMs },
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor),
      }),
    );
    return {
      items: (result.Items ?? []).map((i) => ({
        id: Number(i.id),
        nextTriggerTime: Number(i.nextTriggerTime),
      })),
      nextCursor: encodeCursor(result.LastEvaluatedKey),
    };
  }

  async advanceSchedule(advance: ScheduleAdvance): Promise<boolean> {
    const ended = advance.nextTriggerTime === null;
    const set = [
      'triggerLastTime = :last',
      'logIdBlock = :block',
      ended ? 'triggerStatus = :stopped' : 'nextTriggerTime = :next',
      ...(advance.scheduledFires === undefined ? [] : ['scheduledFires = :fires']),
      ...(advance.ended === undefined ? [] : ['scheduleEnded = :ended']),
      // The plan before moves down: the right-hand side reads the item as it was.
      ...(advance.planDue === undefined
        ? []
        : ['lastPlanDue = :due', 'prevPlanDue = if_not_exists(lastPlanDue, :none)']),
    ];
    const remove = [
      ...(ended ? ['nextTriggerTime', 'dueShard'] : []),
      ...(advance.planDue === undefined ? ['lastPlanDue', 'prevPlanDue'] : []),
    ];
    // The reserved logIds of the plan starting at the old nextTriggerTime are used: the next plan's follow.
    const command = new UpdateCommand({
      TableName: this.options.jobsTable,
      Key: { id: advance.id },
      ConditionExpression: 'nextTriggerTime = :expected AND triggerStatus = :running',
      UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
      ExpressionAttributeValues: {
        ':expected': advance.expectedNext,
        ':running': 'RUNNING',
        ':last': advance.triggerLastTime,
        ':block': advance.nextLogIdBlock,
        ...(ended ? { ':stopped': 'STOPPED' } : { ':next': advance.nextTriggerTime }),
        ...(advance.scheduledFires === undefined ? {} : { ':fires': advance.scheduledFires }),
        ...(advance.ended === undefined ? {} : { ':ended': { ...advance.ended } }),
        ...(advance.planDue === undefined ? {} : { ':due': advance.planDue, ':none': 0 }),
      },
    });
    try {
      await this.options.doc.send(command);
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }

  async markSlow(id: number, untilMs: number): Promise<void> {
    try {
      await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.jobsTable,
          Key: { id },
          UpdateExpression: 'SET slowUntil = :until',
          ConditionExpression: 'attribute_exists(id)',
          ExpressionAttributeValues: { ':until': untilMs },
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
  }

  async getOutcomeHistory(id: number): Promise<OutcomeHistory | undefined> {
    const { Item: item } = await this.options.doc.send(
      new GetCommand({
        TableName: this.options.controlTable,
        Key: { pk: outcomesKey(id) },
        ConsistentRead: true,
      }),
    );
    return item ? (JSON.parse(String(item.history)) as OutcomeHistory) : undefined;
  }

  async putOutcomeHistory(id: number, history: OutcomeHistory, expectedRevision: number): Promise<boolean> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.controlTable,
          Item: { pk: outcomesKey(id), revision: history.revision, history: JSON.stringify(history) },
          ...(expectedRevision === 0
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: 'revision = :expected',
                ExpressionAttributeValues: { ':expected': expectedRevision },
              }),
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }

  async claimFiresUnexplained(id: number, windowStart: number): Promise<boolean> {
    return this.claimOnce(unexplainedFiresKey(id, windowStart), windowStart);
  }

  async claimDeadlineMiss(id: number, deadlineAt: number): Promise<boolean> {
    return this.claimOnce(deadlineMissKey(id, deadlineAt), deadlineAt);
  }

  /** A control item written once (the first caller's): the claims of the monitors' alarms, kept 7 days. */
  private async claimOnce(pk: string, at: number): Promise<boolean> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.controlTable,
          Item: {
            pk,
            [TTL_ATTRIBUTE]: Math.floor(at / 1000) + DEADLINE_MISS_KEPT_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }

  private toItem(job: Job, plan: PlanState = {}): Item {
    const { triggerNextTime, ...rest } = job;
    const due = job.triggerStatus === 'RUNNING' && triggerNextTime !== null;
    return {
      ...rest,
      childJobIds: [...job.childJobIds],
      ...(due ? { nextTriggerTime: triggerNextTime, dueShard: job.id % this.options.shardCount } : {}),
      ...(plan.logIdBlock !== undefined ? { logIdBlock: plan.logIdBlock } : {}),
      ...(plan.lastPlanDue !== undefined ? { lastPlanDue: plan.lastPlanDue } : {}),
      ...(plan.prevPlanDue !== undefined ? { prevPlanDue: plan.prevPlanDue } : {}),
    };
  }
}

function plannableOf(item: Item): PlannableJob {
  return {
    job: fromItem(item),
    ...(typeof item.logIdBlock === 'number' ? { logIdBlock: item.logIdBlock } : {}),
    ...(typeof item.lastPlanDue === 'number' ? { lastPlanDue: item.lastPlanDue } : {}),
    // 0: the plan before the last was none of the schedule's (none yet, or a misfire's).
    ...(typeof item.prevPlanDue === 'number' && item.prevPlanDue > 0
      ? { prevPlanDue: item.prevPlanDue }
      : {}),
  };
}

/**
 * The start key of a `list` cursor, which must come from the same query: DynamoDB rejects a start
 * key outside the key condition (another app's) or of another shape (table scan vs app index) as a
 * database error, which would answer 500 instead of a bad-cursor 400.
 */
function listStartKey(cursor: string | undefined, appName: string | undefined): Item | undefined {
  const key = decodeCursor(cursor);
  if (key === undefined) return undefined;
  const names = Object.keys(key).sort().join(',');
  const fits = appName === undefined ? names === 'id' : names === 'appName,id' && key.appName === appName;
  if (!fits || !Number.isSafeInteger(key.id)) {
    throw new ValidationError('cursor is not a cursor of this query', 'cursor');
  }
  return key;
}

export function fromItem(item: Item): Job {
  const {
    nextTriggerTime,
    dueShard: _dueShard,
    logIdBlock: _logIdBlock,
    lastPlanDue: _lastPlanDue,
    prevPlanDue: _prevPlanDue,
    ...rest
  } = item;
  return {
    ...(rest as unknown as Omit<Job, 'triggerNextTime'>),
    childJobIds: ((item.childJobIds as number[] | undefined) ?? []).map(Number),
    alarmWebhook: (item.alarmWebhook as string | undefined) ?? '',
    slowUntil: Number(item.slowUntil ?? 0),
    triggerNextTime: typeof nextTriggerTime === 'number' ? nextTriggerTime : null,
  };
}
