import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandOutput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Logger } from '@tickring/core/common';
import { ConflictError, NotFoundError } from '@tickring/core/common';
import type { TriggerStatus } from '@tickring/core/jobs';
import {
  describeActiveRuns,
  storedDefinitionOf,
  type WorkflowDefinition,
  type WorkflowRecord,
} from '@tickring/core/workflows';
import { type Item, isConditionFailed } from '../util.js';
import { cancellationCodes, Expr } from './expressions.js';
import { versionItem, workflowHeadItem, workflowOf } from './items.js';
import { COUNTER_KEY, versionSk, workflowKey, workflowPk } from './keys.js';
import { DAY_S, type WorkflowsTable } from './table.js';

/** Versions of a deleted workflow outlive its runs' retention by this much. */
const VERSION_GRACE_DAYS = 1;
/** How long a missed-deadline claim is kept (the sweep looks only at the last closed window). */
const DEADLINE_MISS_KEPT_DAYS = 7;

/** Workflows and the versions of their definitions: the id sequence, create, read, change, delete. */
export class WorkflowDefinitions {
  constructor(
    private readonly table: WorkflowsTable,
    private readonly logger: Logger,
  ) {}

  async allocateId(): Promise<number> {
    const result = await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.workflowsTable,
        Key: COUNTER_KEY,
        UpdateExpression: 'ADD #v :one',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(result.Attributes?.value);
  }

  async create(workflow: WorkflowRecord): Promise<void> {
    const definition = JSON.stringify(workflow.definition);
    try {
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.table.workflowsTable,
                Item: workflowHeadItem(workflow, definition),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Put: { TableName: this.table.workflowsTable, Item: versionItem(workflow, definition) } },
          ],
        }),
      );
    } catch (err) {
      if (cancellationCodes(err)?.[0] === 'ConditionalCheckFailed') {
        throw new ConflictError(`workflow ${workflow.id} already exists`);
      }
      throw err;
    }
  }

  async get(id: number): Promise<WorkflowRecord | undefined> {
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    const { Item: item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.workflowsTable, Key: workflowKey(id), ConsistentRead: true }),
    );
    return item ? workflowOf(item) : undefined;
  }

  async getVersion(id: number, version: number): Promise<WorkflowDefinition | undefined> {
    if (!Number.isSafeInteger(id) || id <= 0 || !Number.isSafeInteger(version) || version <= 0)
      return undefined;
    const { Item: item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.workflowsTable,
        Key: { pk: workflowPk(id), sk: versionSk(version) },
        ConsistentRead: true,
      }),
    );
    return item ? storedDefinitionOf(item.definition) : undefined;
  }

  async update(next: WorkflowRecord, expectedVersion: number): Promise<void> {
    const definition = JSON.stringify(next.definition);
    const e = new Expr();
    const set = [
      `${e.name('definition')} = ${e.value(definition)}`,
      `${e.name('version')} = ${e.value(next.version)}`,
      `${e.name('triggerStatus')} = ${e.value(next.triggerStatus)}`,
      `${e.name('updatedAt')} = ${e.value(next.updatedAt)}`,
      `${e.name('appName')} = ${e.value(next.definition.appName)}`,
    ];
    const removed: string[] = [];
    // The optional editable fields: set when given, removed when not.
    for (const field of ['starterJobId', 'deadlineSetAt'] as const) {
      const value = next[field];
      if (value === undefined) removed.push(e.name(field));
      else set.push(`${e.name(field)} = ${e.value(value)}`);
    }
    const remove = removed.length > 0 ? ` REMOVE ${removed.join(', ')}` : '';
    const condition = `attribute_exists(pk) AND ${e.name('version')} = ${e.value(expectedVersion)}`;
    try {
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.table.workflowsTable,
                Key: workflowKey(next.id),
                UpdateExpression: `SET ${set.join(', ')}${remove}`,
                ConditionExpression: condition,
                ...e.attributes(),
              },
            },
            { Put: { TableName: this.table.workflowsTable, Item: versionItem(next, definition) } },
          ],
        }),
      );
    } catch (err) {
      if (cancellationCodes(err)?.[0] !== 'ConditionalCheckFailed') throw err;
      const current = await this.get(next.id);
      if (!current) throw new NotFoundError(`workflow ${next.id} does not exist`);
      throw new ConflictError(
        `workflow ${next.id} was changed meanwhile (version ${current.version}, not ${expectedVersion}); read it again and retry`,
      );
    }
  }

  async setSchedule(
    id: number,
    triggerStatus: TriggerStatus,
    starterJobId: number | undefined,
    updatedAt: number,
    expectedStarterJobId?: number | null,
  ): Promise<void> {
    const e = new Expr();
    const starter = e.name('starterJobId');
    const expected =
      expectedStarterJobId === undefined
        ? ''
        : expectedStarterJobId === null
          ? ` AND attribute_not_exists(${starter})`
          : ` AND ${starter} = ${e.value(expectedStarterJobId)}`;
    const set = [
      `${e.name('triggerStatus')} = ${e.value(triggerStatus)}`,
      `${e.name('updatedAt')} = ${e.value(updatedAt)}`,
    ];
    if (starterJobId !== undefined) set.push(`${e.name('starterJobId')} = ${e.value(starterJobId)}`);
    const remove = starterJobId === undefined ? ` REMOVE ${e.name('starterJobId')}` : '';
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.workflowsTable,
          Key: workflowKey(id),
          UpdateExpression: `SET ${set.join(', ')}${remove}`,
          ConditionExpression: `attribute_exists(pk)${expected}`,
          ...e.attributes(),
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
      if (expectedStarterJobId !== undefined && (await this.get(id))) {
        throw new ConflictError(`workflow ${id}'s schedule job changed meanwhile; read it again and retry`);
      }
      throw new NotFoundError(`workflow ${id} does not exist`);
    }
  }

  async delete(id: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.table.doc.send(
          new DeleteCommand({
            TableName: this.table.workflowsTable,
            Key: workflowKey(id),
            ConditionExpression:
              'attribute_exists(pk) AND activeRuns = :zero AND attribute_not_exists(bufferedRunId)',
            ExpressionAttributeValues: { ':zero': 0 },
          }),
        );
        break;
      } catch (err) {
        if (!isConditionFailed(err)) throw err;
      }
      const current = await this.get(id);
      if (!current) throw new NotFoundError(`workflow ${id} does not exist`);
      if (current.activeRuns !== 0 || current.bufferedRunId !== undefined) {
        throw new ConflictError(
          `${describeActiveRuns(current.activeRuns, current.bufferedRunId)}; cancel them first`,
        );
      }
      // Its last run ended between the delete and the read: try again.
      if (attempt >= 3) throw new ConflictError(`workflow ${id}'s runs kept changing; try again`);
    }
    await this.expireVersions(id).catch((err: unknown) => {
      this.logger.warn('versions of a deleted workflow not set to expire: they are kept', {
        workflowId: id,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
    });
  }

  /**
   * The first caller's claim of the window ending at `deadlineAt`: an item beside the workflow's head
   * (`deadlineMiss#{at}`, no index entry), put on condition that it is not there, expiring after a week.
   */
  async claimDeadlineMiss(id: number, deadlineAt: number): Promise<boolean> {
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.workflowsTable,
          Item: {
            pk: workflowPk(id),
            sk: `deadlineMiss#${deadlineAt}`,
            expiresAt: Math.floor(deadlineAt / 1000) + DEADLINE_MISS_KEPT_DAYS * DAY_S,
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

  /** The versions of a deleted workflow expire after its runs (which may still be read with them). */
  private async expireVersions(id: number): Promise<void> {
    const expiresAt = this.table.expiry(this.table.now()) + VERSION_GRACE_DAYS * DAY_S;
    let start: Item | undefined;
    do {
      const page: QueryCommandOutput = await this.table.doc.send(
        new QueryCommand({
          TableName: this.table.workflowsTable,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :v)',
          ExpressionAttributeValues: { ':pk': workflowPk(id), ':v': 'v#' },
          ProjectionExpression: 'pk, sk',
          ExclusiveStartKey: start,
        }),
      );
      for (const key of page.Items ?? []) {
        await this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.workflowsTable,
            Key: { pk: key.pk, sk: key.sk },
            UpdateExpression: 'SET expiresAt = :at',
            ExpressionAttributeValues: { ':at': expiresAt },
          }),
        );
      }
      start = page.LastEvaluatedKey;
    } while (start);
  }
}
